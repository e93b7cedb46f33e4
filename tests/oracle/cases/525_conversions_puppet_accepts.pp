# Conversions that look alike and that Puppet takes.
node default {
  $a = Integer.new('42')
  $b = Integer(' 0x1F')
  $c = Integer('-0b101')
  $d = Integer('17', 8)
  $e = Integer({ 'from' => '10', 'radix' => 16 })
  $f = Integer(3.7) + Integer(true)
  $g = Boolean('YES')
  $h = Boolean.new(0)
  $i = Boolean('n')
  $j = Integer('- 5')
  notify { "${a} ${b} ${c} ${d} ${e} ${f} ${g} ${h} ${i} ${j}": }
}
