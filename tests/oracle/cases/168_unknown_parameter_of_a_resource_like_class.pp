# Puppet reports the statement's line; mplint the attribute's name.
class foo($x = 1) { }
class { 'foo':
  x     => 2,
  bogus => 1,
}
