# expect: node-scope-leak@2
define show { notify { "role ${role}": } }
class holder { show { 'x': } }
node default {
  $role = 'web'
  include holder
}
