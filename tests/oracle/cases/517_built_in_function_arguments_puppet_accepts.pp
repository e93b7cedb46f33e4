# Calls that look alike and that Puppet's functions take.
node default {
  'abc'.reverse_each |$c| { notice($c) }
  3.each |$i| { notice($i) }
  $h = { 'a' => 1 }
  $h.each |$k, $v| { notice($k) }
  [1, 2].step(1) |$x| { notice($x) }
  $parts = 'a,b'.split(',')
  $parts2 = 'a,b'.split(/,/)
  $joined = join(['a'], ',')
  $n = length('abc') + size({}) + abs('-3')
  $e = empty(undef)
  $u = unique('aab')
  $c = ['a', 'b'].camelcase
  $t = type(1, detailed)
  $up = upcase(['a'])
  $k = keys({})
  $d = $h.dig('a')
  $d2 = undef.dig(1)
  $v = versioncmp('1', '2')
  $s = sort([2, 1])
  [1, 2].slice(1) |$x| { notice($x) }
  $r = [1].reduce(0) |$m, $x| { $m + $x }
  [1].tree_each |$p, $x| { notice($x) }
  $f = floor('3.5')
  $m = 'abc'.map |$ch| { $ch }
  notify { "${parts} ${parts2} ${joined} ${n} ${e} ${u} ${c} ${t} ${up} ${k} ${d} ${d2} ${v} ${s} ${r} ${f} ${m}": }
}
