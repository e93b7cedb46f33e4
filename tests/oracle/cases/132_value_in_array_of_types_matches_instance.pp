# 'x' in [String] is true: `in` matches an array element that is a type against instances of it.
if 'x' in [String] {
  notify { 'dup': }
}
notify { 'dup': }
