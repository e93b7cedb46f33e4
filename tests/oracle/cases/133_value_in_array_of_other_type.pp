# 'x' in [Integer] is false: the guarded notify is skipped.
if 'x' in [Integer] {
  notify { 'dup': }
}
notify { 'dup': }
