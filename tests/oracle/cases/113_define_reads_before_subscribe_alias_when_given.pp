# $before, $subscribe and $alias are variables in a define when the instance sets them.
notify { 'x': }
define d() {
  notify { "b ${before} s ${subscribe} a ${alias}": }
}
d { 'a': before => Notify['x'], subscribe => Notify['x'], alias => 'other' }
