# `$trusted['hostname']` is the certificate name up to its first dot, so it
# never equals a name with a dot: the second file is never declared.
class web {
  file { '/etc/x.conf': ensure => file }
}
class other {
  if $trusted['hostname'] == 'web01.example.com' {
    file { '/etc/x.conf': ensure => file }
  }
  if $trusted['hostname'] != 'web01.example.com' {
    notify { 'short': }
  }
}
include web
include other
