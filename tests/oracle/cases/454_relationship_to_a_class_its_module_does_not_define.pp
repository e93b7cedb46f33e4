# A reference to a class that the module, which is in the tree, does not
# define: Puppet cannot find the resource.
class ntp::config {
  file { '/etc/ntp.conf': content => "server pool\n" }
}
class ntp {
  include ntp::config
  service { 'ntp': subscribe => Class['ntp::confg'] }
}
node default {
  include ntp
}
