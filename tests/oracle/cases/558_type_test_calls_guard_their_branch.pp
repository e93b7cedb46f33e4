# `is_a` tests a known value's type, so the branch it guards runs only
# with values of that type.
define guarded($h = 5, $list = 8091) {
  if $h.is_a(Hash) { $k = keys($h) } else { $k = [] }
  if is_a($list, Array) { $l = join($list, ',') } else { $l = "${list}" }
  notify { "${title} ${k} ${l}": }
}
guarded { 'a': }
guarded { 'b': h => { 'x' => 1 }, list => ['p', 'q'] }
