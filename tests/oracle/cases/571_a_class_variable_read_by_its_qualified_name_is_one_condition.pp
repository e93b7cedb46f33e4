# `$v` in class `m` and `$m::v` in its defined types are one value: the
# instances are declared only where it is false, so they never declare
# their notify, and never twice, whatever declares `m` with whichever `$v`.
class m (Boolean $v = false) {
  unless $v {
    m::a { 'x': }
    m::b { 'x': }
  }
}
define m::a () {
  if $m::v {
    notify { "dup-${title}": }
  }
}
define m::b () {
  if $m::v {
    notify { "dup-${title}": }
  }
}
