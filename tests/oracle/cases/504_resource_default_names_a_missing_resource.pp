# The service declared after the default takes its `require`, which names
# a package nobody declares.
class app {
  package { 'app-server': }
  Service {
    require => Package['app-srever'],
  }
  service { 'app': }
}
node default {
  include app
}
