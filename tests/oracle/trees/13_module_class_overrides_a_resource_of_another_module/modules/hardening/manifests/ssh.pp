class hardening::ssh {
  File['/etc/ssh/sshd_config'] {
    mode => '0600',
  }
}
