define mymod::thing($x) { }
Mymod::Thing { x => 2 }
mymod::thing { 't': }
