file { '/tmp/x':
  ensure  => file,
  owner   => 'root' # the owner
  content => 'x',
}
