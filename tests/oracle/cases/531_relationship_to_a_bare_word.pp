# A relationship written as a plain string names no resource.
node default {
  package { 'nginx': }
  service { 'nginx':
    require => ['Package[nginx]', 'nginx'],
  }
}
