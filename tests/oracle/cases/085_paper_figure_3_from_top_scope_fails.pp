class params {
  $port = 8080
}
class web inherits params {
  notify { "web ${port} for ${role}": }
}
class app {
  include web
  notify { "app on ${web::port}": }
}
include app
node default {
  $role = 'frontend'
}
