# Puppet fails here, but only because of what mplint cannot see: an
# exported resource another node may export (the oracle has no
# PuppetDB), a title that differs in case only, an exec referred to by
# its command, and a class that is defined but not declared (an
# external node classifier may declare it). mplint stays silent.
# expect: none
class monitoring {
  Host <<| |>>
  file { '/etc/nagios/ready': require => Host['web01'] }
  package { 'nginx': }
  service { 'nginx': require => Package['Nginx'] }
  exec { 'migrate': command => '/usr/bin/migrate' }
  file { '/srv/migrated': require => Exec['/usr/bin/migrate'] }
  file { '/srv/tuned': require => Class['tuning'] }
}
class tuning {}
node default {
  include monitoring
}
