# return() in a lambda of a node: nothing to return from.
node default {
  ['a', 'b'].each |$x| {
    if $x == 'b' { return() }
    notify { $x: }
  }
}
