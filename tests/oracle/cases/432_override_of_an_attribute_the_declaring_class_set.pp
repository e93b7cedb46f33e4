# The declaring class overrides an attribute its own declaration set:
# only a subclass may change it.
class motd {
  file { '/etc/motd': mode => '0644' }
  File['/etc/motd'] {
    mode => '0600',
  }
}
node default {
  include motd
}
