define mymod::thing($x = 1) { }
mymod::thing { 't': export => 1 }
