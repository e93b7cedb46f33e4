# break() and next() in lambdas, next() and return() in a class, a defined
# type and a function, return() in a lambda of a class.
function firsts(Array $list) {
  $list.each |$x| { if $x == 2 { return($x) } }
  next(0)
}
class early {
  [1, 2, 3].each |$x| {
    if $x == 2 { break() }
    if $x == 1 { next() }
  }
  [1].each |$y| { return() }
}
define skipped() {
  next()
}
include early
skipped { 'x': }
notify { "${firsts([1, 2])}": }
$doubled = [1, 2].map |$x| { next($x * 2) }
