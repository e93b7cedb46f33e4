define mymod::thing($x, $y = 2) { }
mymod::thing { 't': y => 3 }
