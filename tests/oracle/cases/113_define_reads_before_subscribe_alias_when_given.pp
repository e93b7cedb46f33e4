# $before, $subscribe and $alias are variables in a define when the instance sets them.
notify { 'x': }
define d() {
  notify { "b ${before} s ${subscribe} a ${alias}": }
}
d { 'a': before => Notify['x'], subscribe => Notify['x'], alias => 'other' }
# The agent would find a cycle: the instance comes before and after Notify[x].
# expect: dependency-cycle@6
