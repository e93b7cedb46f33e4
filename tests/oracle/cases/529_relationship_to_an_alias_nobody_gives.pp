# An alias names a resource too, but only the aliases given.
node default {
  package { 'httpd-server': alias => 'webserver' }
  service { 'httpd': require => Package['web-server'] }
}
