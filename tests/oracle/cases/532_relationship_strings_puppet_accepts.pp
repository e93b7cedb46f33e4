# References written as strings, and relationships that never hold.
node default {
  package { 'nginx': }
  class { 'base': }
  service { 'nginx': require => ['Package[nginx]', 'package[nginx]', 'Class[base]'] }
  @user { 'nobody-yet': require => 'nginx' }
  notify { default: before => 'later'; }
}
class base {}
