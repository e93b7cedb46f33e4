# A virtual resource that is never realized, or realized only on a path
# that does not run, adds no relationship to the catalog.
node default {
  @user { 'deploy':
    require => Group['deployers'],
  }
  @user { 'backup':
    require => Group['operators'],
  }
  if $facts['os']['family'] == 'Solaris' {
    realize(User['backup'])
  }
  notify { 'done': }
}
