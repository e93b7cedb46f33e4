class ssh {
  file { '/etc/ssh/sshd_config':
    ensure => file,
    mode   => '0644',
  }
}
