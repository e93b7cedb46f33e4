case $facts['os']['family'] {
  'Debian': { package { 'p': } }
  'RedHat': { package { 'p': } }
  default:  { package { 'p': } }
}
