# Values a defined type's parameter types refuse, one per node.
# nodes: a.example.com, b.example.com, c.example.com, d.example.com
define app::site(
  Integer[1, 65535] $port = 80,
  Boolean $tls = false,
  Enum['http', 'https'] $scheme = 'http',
  Array[String] $aliases = [],
) {
  notify { "site ${title} ${port} ${tls} ${scheme} ${aliases}": }
}
node 'a.example.com' {
  app::site { 'a': port => 70000 }
}
node 'b.example.com' {
  $tls = 'yes'
  app::site { 'b': tls => $tls }
}
node 'c.example.com' {
  app::site { 'c': * => { 'scheme' => 'ftp' } }
}
node 'd.example.com' {
  app::site { 'd': aliases => ['www', 8080] }
}
