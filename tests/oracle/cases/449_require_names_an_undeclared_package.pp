# A service requires a package nobody declares: a typo in the title.
package { 'nginx': ensure => installed }
service { 'nginx':
  ensure  => running,
  require => Package['ngnix'],
}
