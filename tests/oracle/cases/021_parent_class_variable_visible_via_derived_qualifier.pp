class params { $port = 80 }
class web inherits params { }
class other {
  include web
  notify { "port ${web::port}": }
}
node default { include other }
