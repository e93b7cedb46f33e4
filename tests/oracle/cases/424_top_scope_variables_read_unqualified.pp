# A class or defined type reading the site's top-scope variable unqualified
# is `top-scope-variable`'s; `$::foo`, a fact, a local of the same name are
# not, and a read that a node's scope answers is `node-scope-leak`'s only
# (`$shared`: node scope in web01, top scope in db01).
# nodes: web01.example.com, db01.example.com
# checks: top-scope-variable, node-scope-leak
# expect: top-scope-variable@14
# expect: node-scope-leak@17
# expect: node-scope-leak@18
# expect: top-scope-variable@26
$foo = 'top foo'
$shared = 'top shared'
class app {
  notify { 'line 14': message => $foo }
  notify { 'line 15': message => $::foo }
  notify { 'line 16': message => $os }
  notify { 'line 17': message => $tier }
  notify { 'line 18': message => $shared }
}
class app::local {
  $foo = 'local foo'
  notify { 'line 22': message => $foo }
}
# Evaluated after the node's code, still from top scope's variables.
define app::dir () {
  notify { 'line 26': message => $foo }
}
node 'web01.example.com' {
  $tier = 'node tier'
  $shared = 'node shared'
  include app
  include app::local
  app::dir { '/srv': }
}
node 'db01.example.com' {
  $tier = 'node tier'
  include app
}
