# != 'Debian' and case 'Debian': on the same fact are exclusive: httpd is declared once.
if $facts['os']['family'] != 'Debian' {
  package { 'httpd': }
}
case $facts['os']['family'] {
  'Debian': { package { 'httpd': } }
  default:  { }
}
