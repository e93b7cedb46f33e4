# A virtual resource's relationships hold once it is realized: its
# `require` must name a resource of the catalog.
node default {
  @user { 'deploy':
    require => Group['deployers'],
  }
  realize(User['deploy'])
}
