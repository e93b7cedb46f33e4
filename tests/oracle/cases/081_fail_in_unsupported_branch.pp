case $facts['os']['family'] {
  'Debian': { $pkg = 'ssh' }
  default:  { fail('unsupported') }
}
package { $pkg: }
