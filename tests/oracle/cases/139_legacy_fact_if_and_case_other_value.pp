# if $osfamily == 'Debian' and case $osfamily { 'RedHat': } cannot both hold: httpd is declared once.
if $osfamily == 'Debian' {
  package { 'httpd': }
}
case $osfamily {
  'RedHat': { package { 'httpd': } }
  default:  { }
}
