# title is no attribute: Puppet fails without a line.
define mymod::thing($x = 1) { }
mymod::thing { 't': title => 'u' }
