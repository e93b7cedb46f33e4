# A class included everywhere and declared resource-like again under a
# condition on a fact: the catalog fails only where the condition holds, so
# the clash is possible, not certain. Unconditional twins stay an error.
# nodes: web01.example.com, db01.example.com
# expect: possible-duplicate-resource@10
class ntp ($servers = []) { }
class base { include ntp }
class profile::web {
  if $facts['hostname'] == 'web01' {
    class { 'ntp':
      servers => ['a'],
    }
  }
}
node default {
  include base
  include profile::web
}
