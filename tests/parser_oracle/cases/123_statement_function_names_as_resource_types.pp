# Before `{`, a statement function's name is a resource type: Puppet parses
# these as resources (and fails only when one is evaluated).
if $facts['kernel'] == 'none' {
  fail { "engine ${facts['kernel']} is not supported" :}
  notice { 'x': message => 1 }
  include { 'y': }
  warning { 'z': }
}
