class tuning {
  kernel_setting { 'vm.swappiness':
    ensure  => present,
    val     => '10',
    persist => true,
  }
  kernel_setting { 'net.core.somaxconn':
    ensure => present,
    value  => '1024',
  }
}
