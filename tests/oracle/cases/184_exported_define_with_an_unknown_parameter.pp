define mymod::thing($x = 1) { }
@@mymod::thing { 't': bogus => 1 }
