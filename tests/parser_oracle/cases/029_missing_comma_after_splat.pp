$defaults = { mode => '0644' }
file { '/tmp/x':
  * => $defaults
  ensure => file,
}
