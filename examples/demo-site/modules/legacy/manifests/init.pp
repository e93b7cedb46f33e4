# An old module with a typo: the comma after `ensure => file` is missing.
class legacy {
  file { '/etc/legacy.conf':
    ensure => file
    mode   => '0644',
  }
}
