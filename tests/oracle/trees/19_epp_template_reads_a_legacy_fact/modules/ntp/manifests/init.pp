class ntp {
  $ipaddress = '192.0.2.1'
  file { '/etc/ntp.conf':
    content => epp('ntp/ntp.conf.epp', { 'servers' => ['pool.ntp.org'] }),
  }
}
