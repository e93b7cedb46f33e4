# A core resource type given an attribute it does not have: Puppet fails
# at the declaration.
file { '/tmp/motd':
  ensure => file,
  modee  => '0644',
}
