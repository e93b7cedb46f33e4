# A defined type given an attribute it has no parameter for.
define mymod::thing($x = 1) { }
mymod::thing { 't': bogus => 1 }
