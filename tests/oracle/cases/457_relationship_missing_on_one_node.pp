# nodes: a.example.com, b.example.com
# Only node a declares the package the shared class requires.
class app {
  service { 'app': require => Package['app'] }
}
node 'a.example.com' {
  package { 'app': }
  include app
}
node 'b.example.com' {
  include app
}
