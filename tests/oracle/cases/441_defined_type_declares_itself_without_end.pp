# A defined type declares itself with a new title on every run: Puppet
# loops until it gives up.
define loop::deeper() {
  file { "/tmp/${title}": ensure => directory }
  loop::deeper { "${title}/sub": }
}
node default {
  loop::deeper { 'a': }
}
