# A port number as a title: Puppet wants a string.
class web {
  notify { 8080: message => 'listening' }
}
include web
