# A resource-like class declaration takes name and the metaparameters.
class foo($x = 1) { }
class { 'foo': name => 'u', noop => true, tag => 'a', audit => 'all', loglevel => 'info', stage => 'main', before => [], require => [], notify => [], subscribe => [] }
