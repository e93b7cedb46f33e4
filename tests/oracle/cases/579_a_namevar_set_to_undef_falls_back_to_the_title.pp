# A namevar given as `undef` is not given: each file's path is its title,
# as in modules whose subclasses set the path later by an override.
class base {
  file { 'logrotate configuration': path => undef, ensure => file }
  file { 'status configuration': path => undef, ensure => file }
}
class debian inherits base {
  File['logrotate configuration'] { path => '/etc/logrotate.d/apache2' }
}
include debian
file { '/tmp/a': path => undef }
file { '/tmp/b': path => undef }
