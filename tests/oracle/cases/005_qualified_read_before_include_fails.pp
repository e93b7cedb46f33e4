class appsettings { $port = 8080 }
class app {
  notify { "port ${appsettings::port}": }
  include appsettings
}
node default { include app }
