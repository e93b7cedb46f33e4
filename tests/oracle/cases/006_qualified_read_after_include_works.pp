class appsettings { $port = 8080 }
class app {
  include appsettings
  notify { "port ${appsettings::port}": }
}
node default { include app }
