# References Puppet resolves: a resource declared later, in another class
# the node includes, inside a defined type's instance, by namevar, by
# alias, with a trailing slash, virtual (realized or not), exported, by
# create_resources and ensure-like declarations, a defined type's
# instance, a declared class, the main stage, and arrays of references.
define app::site() {
  file { "/srv/${title}": ensure => directory }
}
class base {
  package { 'openssh-server': }
}
class web {
  include base
  service { 'ssh': require => Package['openssh-server'] }
  service { 'nginx': require => [Package['nginx'], File['/etc/nginx/']] }
  package { 'nginx': }
  file { '/etc/nginx': ensure => directory }
  package { 'apache-full': name => 'apache2' }
  service { 'apache2': require => Package['apache2'] }
  package { 'php-fpm': alias => 'php' }
  service { 'php-fpm': require => Package['php'] }
  app::site { 'blog': }
  file { '/srv/blog/index.html': require => File['/srv/blog'] }
  exec { 'reload': command => '/bin/true', subscribe => App::Site['blog'] }
  @user { 'deploy': }
  realize(User['deploy'])
  @group { 'ops': }
  file { '/srv/ops': require => [User['deploy'], Group['ops']] }
  @@host { 'web01': ip => '10.0.0.1' }
  Host['web01'] -> File['/srv/ops']
  create_resources('package', { 'curl' => {} })
  cron { 'tick': command => '/bin/true', require => Package['curl'] }
  Class['base'] -> Class['web']
  notify { 'stage': before => Stage['main'] }
}
node default {
  include web
}
