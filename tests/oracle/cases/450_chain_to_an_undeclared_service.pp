# A chaining arrow to a service nobody declares.
package { 'nginx': ensure => installed }
Package['nginx'] -> Service['nginx']
