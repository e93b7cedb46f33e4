# A virtual instance of a defined type that code surely realizes runs: its
# file clashes with the regular instance's.
define plug($plugin = $name) {
  file { "/etc/${plugin}.load": ensure => file }
}
class master {
  plug { 'net-master': plugin => 'network' }
  @plug { 'net-virtual': plugin => 'network' }
}
include master
realize(Plug['net-virtual'])
