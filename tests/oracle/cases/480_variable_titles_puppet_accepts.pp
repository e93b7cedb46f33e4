# The same names in other scopes, or holding strings.
$port = 8080
class app {
  $port = '8080'
  notify { $port: }
}
include app
[80].each |$port| { notify { "p${port}": } }
$names = ['a', 'b']
notify { $names: }
