class base {
  $x = 1
  if $facts['hostname'] == 'nope' { notify { 'n': } }
  $x = 2
}
include base
