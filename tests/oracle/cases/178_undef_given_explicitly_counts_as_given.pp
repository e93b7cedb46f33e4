define mymod::thing($x) { }
mymod::thing { 't': x => undef }
class foo($x) { }
class { 'foo': x => undef }
