# `b` runs once, with the values of the branch that declares it: here the
# else branch, whose `f => false` declares no second `/t`.
class b($f) {
  if $f {
    file { '/t': }
  }
}
if $facts['x'] == 'a' {
  class { 'b': f => true }
} else {
  class { 'b': f => false }
}
file { '/t': }
