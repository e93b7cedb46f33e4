class ntp(String $operatingsystem = 'Debian') {
  $osfamily = $facts['os']['family']
  file { '/etc/ntp.conf':
    content => template('ntp/ntp.conf.erb'),
  }
  file { '/etc/ntp.keys':
    content => epp('ntp/ntp.keys.epp', { 'ipaddress' => '192.0.2.1' }),
  }
}
