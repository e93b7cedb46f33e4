# Defaults whose relationships no resource takes: none of the type, one
# declared before the default, one that sets the metaparameter itself.
class app {
  package { 'app-server': }
  service { 'early': }
  Service {
    require => Package['nope'],
  }
  Exec {
    before => Notify['nope'],
  }
  service { 'app':
    require => Package['app-server'],
  }
}
node default {
  include app
}
