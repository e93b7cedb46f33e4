# graph: cycles
class db {
  package { 'postgresql': }
}
class web {
  package { 'nginx': }
}
node default {
  include db, web
  Class['db'] -> Package['nginx']
  Class['web'] -> Package['postgresql']
}
