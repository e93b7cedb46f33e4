# graph: cycles
# A class starts before what it holds: a resource cannot come before it.
class ntp {
  package { 'ntp': }
  service { 'ntp':
    require => Package['ntp'],
    before  => Class['ntp'],
  }
}
node default {
  include ntp
}
