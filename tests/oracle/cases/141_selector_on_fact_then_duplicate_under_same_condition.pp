# Under os.family == 'Debian' the selector gave $x = 'a', so notify { $x: } duplicates notify { 'a': }.
$x = $facts['os']['family'] ? { 'Debian' => 'a', default => 'b' }
if $facts['os']['family'] == 'Debian' {
  notify { $x: }
  notify { 'a': }
}
