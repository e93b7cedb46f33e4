class base { notify { "role ${::role}": } }
node default {
  $role = 'web'
  include base
}
