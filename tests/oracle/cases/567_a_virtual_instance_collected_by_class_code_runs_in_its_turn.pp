# A virtual defined-type instance that a collector in class code brings in
# runs in its turn, before the instances declared after it: its `include
# m::main` comes before `m` declares `m::main` resource-like, and Puppet
# fails on the duplicate.
class m::main($port = 8080) { notify { "main ${port}": } }
class m($port = 1) {
  class { 'm::main': port => $port }
}
define m::node() {
  include m::main
  include m
}
define m::wrapper() {
  include m
}
class m::server {
  @m::node { 'a': }
  m::wrapper { 'w': }
  M::Node <| |>
}
include m::server
