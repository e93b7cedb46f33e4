# expect: node-scope-leak@2
class base { notify { "role ${role}": } }
class derived inherits base { }
node default {
  $role = 'db'
  include derived
}
