# `$cmds[$param][$value]` is true exactly when `$param` is a key whose
# entry has `$value`: the branches after it know `$param` is not 'p'.
define m::cp ($param, $value) {
  $cmds = { 'p' => { 'default' => 1 }, 'q' => { 'x' => 2 } }
  if $cmds[$param] {
    if $cmds[$param][$value] {
      notice('known')
    } elsif $param == 'p' {
      notice(Integer($value))
    } elsif $param in ['p'] {
      notice(Integer($value))
    }
  }
}
m::cp { 'a': param => $facts['cp_param'], value => 'default' }
# A value no entry has: the conversion fails when `$param` is 'p' (Puppet,
# with the fact cp_param set to 'p', fails there and nowhere else).
define m::cq ($param, $value) {
  $cmds = { 'p' => { 'default' => 1 }, 'q' => { 'x' => 2 } }
  if $cmds[$param] {
    unless $cmds[$param][$value] {
      if $param == 'p' {
# expect: type-mismatch@24
        notice(Integer($value))
      }
    }
  }
}
m::cq { 'b': param => $facts['cp_param'], value => 'bogus' }
