# realize() of virtual and of plain resources, and overrides of resources
# the parent class declares.
@user { 'carol': }
user { 'dave': }
realize(User['carol'], User['dave'])
class base {
  file { '/etc/motd': ensure => file }
}
class base::custom inherits base {
  File['/etc/motd'] { mode => '0644' }
}
include base::custom
