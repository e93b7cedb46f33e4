# A single colon separates nothing in a class name: no class is found by
# it, though `keystone::ldap` exists.
class keystone { }
class keystone::ldap { }
node default {
  include keystone
  class { 'keystone:ldap': }
}
