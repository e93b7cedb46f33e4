# Resources mplint cannot list: created from data, titled by a fact,
# named by an alias. Puppet finds each target; mplint must stay silent.
$packages = { 'nginx' => { ensure => installed } }
create_resources('package', $packages)
service { 'nginx': require => Package['nginx'] }
package { $facts['hostname']: }
service { 'host': require => Package['web01'] }
exec { 'reload': command => '/bin/true', alias => 'restart' }
service { 'app': notify => Exec['restart'] }
