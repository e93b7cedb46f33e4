# Defaults their parameter types refuse: Puppet fails where the default is taken.
# nodes: a.example.com, b.example.com, c.example.com, d.example.com
class app(Integer $port = '80') { notify { "p ${port}": } }
class app2(String $owner = undef) { notify { "o ${owner}": } }
define app::site(Boolean $tls = 'yes') { notify { "s ${tls}": } }
node 'a.example.com' {
  include app
}
node 'b.example.com' {
  include app2
}
node 'c.example.com' {
  app::site { 'x': }
}
node 'd.example.com' {
  class { 'app': port => 80 }
}
