# Puppet checks virtual resources' parameters even when nothing realizes them.
define mymod::thing($x) { }
@mymod::thing { 't': }
