# The guarded blocks never declare what their guard tests: both run, and
# the file is declared twice.
class cvtbot {
  if !defined(Package['ms-prod']) {
    file { '/opt/ms-prod.deb': ensure => file }
  }
}
define relaybot () {
  if !defined(Package['ms-prod']) {
    file { '/opt/ms-prod.deb': ensure => file }
  }
}
include cvtbot
relaybot { 'relaybot': }
