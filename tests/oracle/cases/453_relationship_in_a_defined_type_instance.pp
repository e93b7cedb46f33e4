# Each instance of a defined type requires a package no code declares.
define app::vhost($port = 80) {
  file { "/etc/app/${title}.conf":
    content => "${port}\n",
    require => Package['app-server'],
  }
}
class app {
  package { 'app-srv': }
  app::vhost { 'www': }
}
node default {
  include app
}
