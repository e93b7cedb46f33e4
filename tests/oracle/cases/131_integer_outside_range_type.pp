# 1 =~ Integer[2,3] is false: the guarded notify is skipped.
if 1 =~ Integer[2,3] {
  notify { 'dup': }
}
notify { 'dup': }
