# An Enum parameter given another value: Puppet fails at the class's
# declaration, not at the selector that has no option for it.
class outer (Enum['a', 'b'] $mode = 'a') {
  $port = $mode ? { 'a' => 1, 'b' => 2 }
  notify { "port ${port}": }
}
class { 'outer': mode => 'c' }
