class ntp(String $servers = 'pool.ntp.org') {
  $hostname = 'clock'
  file { '/etc/ntp.conf':
    content => template('ntp/ntp.conf.erb'),
  }
}
