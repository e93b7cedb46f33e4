# A variable assigned a number, used as a title in the same class.
class app {
  $port = 8080
  if $facts['os']['family'] == 'Debian' {
    notify { $port: message => 'listening' }
  }
}
include app
