# The profile reads the base class's variables, then declares a class that
# inherits the base. Whoever classifies a node declares the base first (an
# external classifier here: no node of this file reaches the profile), so the
# profile alone proves nothing about the order.
class base ($host = 'puppet') {
  $hosts = [$host]
}
class base::server inherits base {
  notify { "server ${hosts[0]}": }
}
class profile::replica {
  $primary = $base::host
  class { 'base::server': }
  notify { "replica of ${primary}": }
}
node default {
  include base
}
