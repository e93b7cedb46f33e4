# Under os.family == 'Debian' $x is 'a', so notify { $x: } and notify { 'b': } are distinct.
$x = $facts['os']['family'] ? { 'Debian' => 'a', default => 'b' }
if $facts['os']['family'] == 'Debian' {
  notify { $x: }
  notify { 'b': }
}
