# Splats whose keys are attributes of the type.
$settings = { 'owner' => 'root' }
file { '/etc/issue':
  * => { 'ensure' => 'file', 'mode' => '0644', 'require' => File['/etc/motd'] },
}
file { '/etc/motd': * => $settings }
