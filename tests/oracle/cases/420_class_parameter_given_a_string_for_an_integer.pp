# A number written in quotes is a string: the class's Integer parameter
# refuses it.
class app(Integer $port = 80) {
  notify { "app on ${port}": }
}
class { 'app':
  port => '8080',
}
