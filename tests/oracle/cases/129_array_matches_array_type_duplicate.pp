# [1] =~ Array is true: the guarded notify duplicates the later one.
if [1] =~ Array {
  notify { 'dup': }
}
notify { 'dup': }
