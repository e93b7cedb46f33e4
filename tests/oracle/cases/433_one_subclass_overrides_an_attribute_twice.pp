# Two overrides of one attribute from the same subclass: the second is an
# attempt to redefine what the first set.
class motd {
  file { '/etc/motd': }
}
class motd::strict inherits motd {
  File['/etc/motd'] { mode => '0600' }
  File['/etc/motd'] {
    owner => 'root',
    mode  => '0400',
  }
}
node default {
  include motd::strict
}
