# A subclass overrides a file its parent never declares.
class base {
  file { '/etc/motd': ensure => file }
}
class base::custom inherits base {
  File['/etc/issue'] { mode => '0644' }
}
include base::custom
