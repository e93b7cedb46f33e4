# Every attribute here is known: the type's own, `name`, `provider` on a
# type with providers, and the metaparameters.
exec { 'refresh': command => '/bin/true', name => 'reload', refreshonly => true, logoutput => on_failure }
file { '/tmp/b':
  path     => '/tmp/b',
  ensure   => file,
  provider => posix,
  tag      => ['a'],
  loglevel => debug,
  noop     => true,
  audit    => all,
  alias    => 'bee',
  before   => Notify['n'],
}
notify { 'n': message => 'm', withpath => true }
package { 'p': ensure => installed, install_options => [], allow_virtual => true }
service { 's': ensure => running, enable => true, hasstatus => true, require => Package['p'] }
user { 'u': ensure => present, managehome => true, purge_ssh_keys => true }
group { 'g': ensure => present, members => [] }
tidy { '/tmp': age => '1w', recurse => 1 }
schedule { 'nightly': range => '2 - 4', period => daily }
resources { 'host': purge => false }
stage { 'early': before => Stage['main'] }
filebucket { 'main': path => false }
