# Two classes each declare a package and a file beside it under
# `if !defined(Package[…])`: the second block never runs, file included.
class cvtbot {
  if !defined(Package['ms-prod']) {
    file { '/opt/ms-prod.deb': ensure => file }
    package { 'ms-prod': source => '/opt/ms-prod.deb' }
  }
}
define relaybot () {
  if !defined(Package['ms-prod']) {
    file { '/opt/ms-prod.deb': ensure => file }
    package { 'ms-prod': source => '/opt/ms-prod.deb' }
  }
}
include cvtbot
relaybot { 'relaybot': }
