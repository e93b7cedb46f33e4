# Arguments and defaults of the types their parameters declare, and
# values mplint does not know.
function double(Integer $x, Optional[String] $label = undef) >> Integer {
  $x * 2
}
function sum(Integer *$values) >> Integer {
  $values.reduce(0) |$a, $b| { $a + $b }
}
node default {
  with(8080, 'web') |Integer $port, String $name, Boolean $tls = false| {
    notify { "${name} ${port} ${tls}": }
  }
  [80, 443].each |Integer $index, Variant[Integer, String] $port| {
    notify { "port ${index} ${port}": }
  }
  $ports = { 'web' => 80 }
  $ports.each |String $name, Integer[1, 65535] $port| {
    notify { "${name} at ${port}": }
  }
  $databases = { 'db' => 5432 }
  $databases.each |Array $pair| {
    notify { "pair ${pair[0]}": }
  }
  notify { 'sums':
    message => "${double(21)} ${double(2, 'two')} ${sum(1, 2, 3)} ${double($facts['os']['family'].length)}",
  }
  [1, 2].map |Integer $x| { $x }.each |Integer $y| {
    notify { "mapped ${y}": }
  }
}
