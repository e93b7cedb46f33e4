# A chaining arrow names a service that no code declares.
class app {
  file { '/etc/app.conf': content => "x\n" }
  File['/etc/app.conf'] ~> Service['app']
}
node default {
  include app
}
