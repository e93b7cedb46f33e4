class profile::base (
  Array[String[1]] $admins = ['alice', 'bob'],
) {
  $admins.each |String $admin| {
    user { $admin:
      ensure     => present,
      managehome => true,
    }
  }

  file { '/etc/motd':
    ensure  => file,
    content => @("MOTD"),
      Welcome to ${facts['networking']['fqdn']}.
      Managed by Puppet.
      | MOTD
  }
}
