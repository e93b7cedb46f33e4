# A splat of a literal hash gives attributes too.
file { '/etc/motd':
  ensure => file,
  *      => { 'owner' => 'root', 'modee' => '0644' },
}
