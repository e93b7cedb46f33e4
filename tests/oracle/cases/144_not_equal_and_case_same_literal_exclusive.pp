# != 'RedHat' and case 'RedHat': are exclusive whatever the family: p is declared once.
if $osfamily != 'RedHat' {
  package { 'p': }
}
case $osfamily {
  'RedHat': { package { 'p': } }
  default:  { }
}
