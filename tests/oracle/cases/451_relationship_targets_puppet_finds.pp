# Every relationship here finds its resource: declared later, virtual or
# exported, through a namevar, with a trailing slash, by a defined type's
# body, a class by any case, an array with undef.
define web::site() {
  file { "/srv/${title}": ensure => directory }
}
class web { }
include web
service { 'a': require => Package['later'] }
package { 'later': }
@package { 'virtual': }
@@package { 'exported': }
service { 'b': require => [Package['virtual'], Package['exported'], undef] }
Package['virtual'] -> Service['b']
package { 'web-server': name => 'nginx' }
service { 'c': require => Package['nginx'] }
file { '/etc/app/': ensure => directory }
file { '/etc/app/conf': require => File['/etc/app'] }
web::site { 'blog': }
service { 'd': require => [File['/srv/blog'], Web::Site['blog'], Class['Web'], Class['::web']] }
service { 'e': require => 'Package[later]' }
Class['web'] -> Service['e']
# A virtual resource's relationships are not checked until it is realized.
@service { 'f': require => Package['nowhere'] }
