class params { $port = 80 }
class web inherits params { notify { "port ${port}": } }
node default { include web }
