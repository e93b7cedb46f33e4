class foo($x = 1, $y = $x) { }
include foo
define mymod::thing($a, $b = 2) { }
mymod::thing { 't': a => 1 }
class bar($z) { }
class { 'bar': z => 1 }
