case $facts['os']['family'] {
  'RedHat': { $pkg = 'httpd' }
  default:  { $pkg = 'apache2' }
}
package { $pkg: }
