# Values that Variant, NotUndef, sized, Struct and aliased types refuse,
# one per node.
# nodes: a.example.com, b.example.com, c.example.com, d.example.com, e.example.com, f.example.com, g.example.com, h.example.com, i.example.com, j.example.com
type App::Port = Integer[1, 65535]
type App::Endpoint = Struct[{ 'host' => String[1], Optional['port'] => App::Port }]
define app::site(
  Variant[Integer, Enum['auto']] $workers = 'auto',
  NotUndef $owner = 'root',
  String[2, 8] $zone = 'eu',
  Array[String, 1, 2] $aliases = ['www'],
  Hash[String, Integer, 1] $limits = { 'conn' => 1 },
  Struct[{ 'user' => String, Optional['uid'] => Integer }] $account = { 'user' => 'app' },
  App::Port $port = 80,
  App::Endpoint $backend = { 'host' => 'db' },
) {
  notify { "site ${title} ${workers} ${owner} ${zone} ${aliases} ${limits} ${account} ${port} ${backend}": }
}
node 'a.example.com' {
  app::site { 'a': workers => 'many' }
}
node 'b.example.com' {
  app::site { 'b': zone => 'x' }
}
node 'c.example.com' {
  app::site { 'c': aliases => [] }
}
node 'd.example.com' {
  app::site { 'd': aliases => ['a', 'b', 'c'] }
}
node 'e.example.com' {
  app::site { 'e': limits => {} }
}
node 'f.example.com' {
  app::site { 'f': account => { 'uid' => 10 } }
}
node 'g.example.com' {
  app::site { 'g': account => { 'user' => 'app', 'shell' => '/bin/sh' } }
}
node 'h.example.com' {
  app::site { 'h': account => { 'user' => 'app', 'uid' => '10' } }
}
node 'i.example.com' {
  app::site { 'i': port => 0 }
}
node 'j.example.com' {
  app::site { 'j': backend => { 'host' => 'db', 'port' => 70000 } }
}
