# The site manifest: one node per role.
node 'web01.example.com', 'web02.example.com' {
  $role_port = 8080
  include role::web
}

node /^db\d+\.example\.com$/ {
  include role::database
}

node default {
  include profile::base
}
