define mymod::thing($x) { }
mymod::thing { 't': * => { 'name' => 'u', 'x' => 2 } }
