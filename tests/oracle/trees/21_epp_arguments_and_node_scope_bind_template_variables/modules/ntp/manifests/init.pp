class ntp(Optional[String] $fqdn = undef) {
  $settings = { 'fqdn' => $fqdn, 'ipaddress' => '192.0.2.1' }
  file { '/etc/ntp.conf':
    content => epp('ntp/ntp.conf', $settings),
  }
}
