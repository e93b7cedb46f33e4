# 'a' =~ String is true: the guarded notify duplicates the later one.
if 'a' =~ String {
  notify { 'dup': }
}
notify { 'dup': }
