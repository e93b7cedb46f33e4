# A type written with a capital still declares a resource of that type.
Package { 'curl':
  ensure  => installed,
  version => '1.0',
}
