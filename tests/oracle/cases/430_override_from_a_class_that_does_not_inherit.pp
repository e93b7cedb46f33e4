# A class overrides a resource another class declares, without inheriting
# it: Puppet refuses the override.
class motd {
  file { '/etc/motd': mode => '0644' }
}
class hardening {
  File['/etc/motd'] {
    owner => 'root',
  }
}
node default {
  include motd
  include hardening
}
