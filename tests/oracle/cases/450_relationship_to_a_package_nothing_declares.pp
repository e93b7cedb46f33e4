# A service requires a package that no code declares: the package's
# title is misspelt. Puppet fails the catalog.
class web {
  package { 'nginx-full': ensure => installed }
  service { 'nginx':
    ensure  => running,
    require => Package['nginx-ful'],
  }
}
node default {
  include web
}
