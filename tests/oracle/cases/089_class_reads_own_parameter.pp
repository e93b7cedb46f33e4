class web ($port = 80) { notify { "port ${port}": } }
node default { class { 'web': port => 8080 } }
