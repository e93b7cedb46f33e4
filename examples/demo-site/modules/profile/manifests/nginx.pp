class profile::nginx {
  package { 'nginx': ensure => installed }

  file { '/etc/nginx/conf.d/site.conf':
    ensure  => file,
    content => "listen ${role_port};\n",
    require => Package['nginx'],
  }
  ~> service { 'nginx':
    ensure => running,
    enable => true,
  }
}
