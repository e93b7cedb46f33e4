# name and Puppet 7's metaparameters (stage aside: only classes set it).
define mymod::thing($x = 1) { }
schedule { 'daily': }
mymod::thing { 't': name => 'u', noop => true, tag => 'a', alias => 'zz', audit => 'all', loglevel => 'info', schedule => 'daily', before => [], require => [], notify => [], subscribe => [] }
