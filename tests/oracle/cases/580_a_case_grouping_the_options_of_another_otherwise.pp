# Two `case`s on one value with the same options grouped otherwise: the
# second's `'Debian'` branch runs only where the first's did.
class m {
  case $facts['os']['family'] {
    'RedHat':  { }
    'Solaris': { }
    'Debian':  { $cmd = 'x' }
  }
  case $facts['os']['family'] {
    'RedHat', 'Solaris': { }
    'Debian': { notify { "${cmd} run": } }
  }
}
include m
