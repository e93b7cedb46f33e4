# A selector whose default arm fails stops nothing when another arm is
# chosen: the class declared after it still runs before the lazy define, whose
# parameter default reads the class's variable.
define pf::db ($t = $pf::dtype) {
  include pf
  notify { "t=${t}": }
}
class pf ($dtype = 'hash') { }
class prof ($mode = 'in') {
  pf::db { 'a': }
  $cert = $mode ? {
    'in'    => 'mx-in',
    default => fail('mode not supported'),
  }
  $family = $facts['os']['family'] ? {
    'Debian' => 'deb',
    'RedHat' => 'rpm',
    default  => fail('unsupported'),
  }
  class { 'pf': dtype => 'btree' }
  notify { "${cert} ${family}": }
}
node default { include prof }
