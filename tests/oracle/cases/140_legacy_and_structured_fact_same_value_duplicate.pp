# $osfamily and $facts['os']['family'] are both Debian: both branches declare httpd.
# expect: possible-duplicate-resource@7
if $osfamily == 'Debian' {
  package { 'httpd': }
}
case $facts['os']['family'] {
  'Debian': { package { 'httpd': } }
  default:  { }
}
