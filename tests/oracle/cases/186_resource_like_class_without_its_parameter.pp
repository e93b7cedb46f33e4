class foo($x, $y = 1) { }
class { 'foo': y => 2 }
