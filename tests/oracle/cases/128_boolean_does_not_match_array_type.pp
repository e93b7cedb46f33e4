# true =~ Array is false: the guarded notify is skipped.
if true =~ Array {
  notify { 'dup': }
}
notify { 'dup': }
