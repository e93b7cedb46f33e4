# Calls of `max`, `min` and `compare` that Puppet takes.
node default {
  $a = max(1, 2)
  $b = min([3, 4])
  $c = compare('a', 'B', true)
  $d = max() |$x, $y| { compare($x, $y) }
  notify { "${a} ${b} ${c} ${d}": }
}
