class role::database {
  include profile::base
  class { 'profile::postgresql':
    version => '15',
  }
}
