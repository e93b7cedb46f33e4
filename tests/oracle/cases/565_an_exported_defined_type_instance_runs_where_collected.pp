# An exported instance of a defined type runs only where it is collected:
# its file does not clash with the regular instance's here.
define plug($plugin = $name) {
  file { "/etc/${plugin}.load": ensure => file }
}
class master {
  plug { 'net-master': plugin => 'network' }
  @@plug { 'net-client': plugin => 'network' }
  @plug { 'net-virtual': plugin => 'network' }
}
include master
