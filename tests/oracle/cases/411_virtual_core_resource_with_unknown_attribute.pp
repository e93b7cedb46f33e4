# A virtual resource nothing collects is still checked where it is declared.
class base {
  @user { 'deploy':
    ensure => present,
    homedir => '/srv/deploy',
  }
}
include base
