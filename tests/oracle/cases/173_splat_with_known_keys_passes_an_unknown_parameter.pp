define mymod::thing($x) { }
$h = { 'x' => 1, 'bogus' => 2 }
mymod::thing { 't': * => $h }
