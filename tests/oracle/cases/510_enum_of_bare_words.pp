# Bare words in a type's parameters are strings: `Enum[present, absent]`
# refuses 'running'.
define check_state(Enum[present, absent] $ensure) {
  notify { $title: }
}
node default {
  check_state { 'a': ensure => present }
  check_state { 'b': ensure => 'running' }
}
