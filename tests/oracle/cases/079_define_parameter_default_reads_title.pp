define site ($docroot = "/var/www/${title}") {
  file { $docroot: ensure => directory }
}
site { 'a': }
site { 'b': }
