class profile::postgresql (String $version = '13') {
  $package = $facts['os']['family'] ? {
    'Debian' => "postgresql-${version}",
    default  => 'postgresql-server',
  }
  package { $package: ensure => installed }
}
