# graph: cycles
# Orders that look alike but close no cycle: arrows in one direction, a
# virtual resource never realized, a cycle only on another OS family, a
# resource and an instance it does not hold.
define vhost() {
  notify { "vhost ${title}": }
}
class web {
  package { 'nginx': }
  service { 'nginx':
    require => Package['nginx'],
  }
  vhost { 'default':
    require => Service['nginx'],
  }
}
class users {
  @user { 'deploy':
    before => Class['users'],
  }
  notify { 'users': }
}
node default {
  include web, users
  Package['nginx'] -> Service['nginx'] -> Vhost['default']
  notify { 'done': }
  Class['web'] -> Notify['done']
  if $facts['os']['family'] == 'RedHat' {
    notify { 'rh': }
    Notify['rh'] -> Notify['done']
    Notify['done'] -> Notify['rh']
  }
}
