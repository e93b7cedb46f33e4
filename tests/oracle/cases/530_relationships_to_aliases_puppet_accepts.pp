# Relationships may name a resource by one of its aliases.
node default {
  package { 'httpd-server': alias => ['webserver', 'apache'] }
  notify { 'actual': alias => 'nickname' }
  service { 'httpd': require => Package['webserver'] }
  Notify['nickname'] -> Service['httpd']
  Package['apache'] ~> Service['httpd']
}
