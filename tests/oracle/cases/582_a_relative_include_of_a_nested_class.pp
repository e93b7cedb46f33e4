# Puppet 3 found `amq::service` in the enclosing class's namespace;
# Puppet 4 and later look for the top-level class `amq::service` only.
class activemq::service {
  service { 'activemq': ensure => running }
}
class profile::mq {
  class amq::service inherits activemq::service {
    Service['activemq'] { enable => true }
  }
  include amq::service
}
node default {
  include profile::mq
}
