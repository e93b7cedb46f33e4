# graph: cycles
# The same as a contained class, but included: no cycle.
class app {
  include app::config
  notify { 'app': }
}
class app::config {
  file { '/tmp/app.conf':
    ensure => file,
    before => Class['app'],
  }
}
node default {
  include app
}
