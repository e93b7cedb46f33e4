# expect: node-scope-leak@6
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
node default {
  $role = 'frontend'
  include app
}
