class web { notify { "port ${port}": } }
node default {
  include web
  $port = 80
}
