# graph: cycles
# `contain` puts a class inside another: ordering the inner one after the
# outer one is a cycle.
class app {
  contain app::config
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
