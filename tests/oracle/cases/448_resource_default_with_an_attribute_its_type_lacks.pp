# A resource default with an attribute its type lacks fails on the resources
# that take it; with none to take it, Puppet compiles.
# nodes: a.example.com, b.example.com, c.example.com, d.example.com
class app {
  Service { hasrestartt => true }
  service { 'app': ensure => running }
}
node 'a.example.com' {
  File { modee => '0644' }
  file { '/tmp/x': ensure => file }
}
node 'b.example.com' {
  File { modee => '0644' }
  Package { ensure => installed }
  package { 'curl': }
}
node 'c.example.com' {
  include app
}
node 'd.example.com' {
  file { default: modee => '0644'; '/tmp/x': ensure => file }
}
