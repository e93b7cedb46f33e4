# Values that bare-word types accept: a bare word equals its quoted
# string, and a Struct with bare keys takes a hash with quoted ones.
define check_state(Enum[present, absent] $ensure, Struct[{port => Integer, Optional[host] => String}] $opts) {
  notify { $title: }
}
class take(Enum[yes, no, fooBar] $answer = yes) {
  notify { "answer ${answer}": }
}
node default {
  check_state { 'a': ensure => 'absent', opts => { 'port' => 80 } }
  check_state { 'b': ensure => present, opts => { port => 80, host => 'h' } }
  class { 'take': answer => 'fooBar' }
}
