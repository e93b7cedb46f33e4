# `realize` in a lambda whose iteration is empty, after `return()`, or in
# a virtual instance nothing collects makes nothing real.
@notify { 'a': require => Package['nope-a'] }
@notify { 'b': require => Package['nope-b'] }
@notify { 'c': require => Package['nope-c'] }
define realizer() {
  realize(Notify['c'])
}
class stops {
  if $facts['os']['family'] == 'Debian' { return() }
  realize(Notify['b'])
}
node default {
  [].each |$x| { realize(Notify['a']) }
  include stops
  @realizer { 'x': }
}
