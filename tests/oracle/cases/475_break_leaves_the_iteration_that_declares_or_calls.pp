# break() in a class or a function leaves the iteration that declares the
# class or calls the function.
class stop {
  break()
}
function stop_at(Integer $x) >> Integer {
  if $x == 2 { break() }
  $x * 10
}
[1, 2].each |$i| { include stop }
$values = [1, 2, 3].map |$x| { stop_at($x) }
notify { "${values}": }
