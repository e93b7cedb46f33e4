# `owner` belongs to `file`, not to `service`.
class app {
  service { 'app':
    ensure => running,
    owner  => 'root',
  }
}
include app
