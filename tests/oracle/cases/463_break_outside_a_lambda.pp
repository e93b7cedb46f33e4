# break() in a defined type's body, outside any lambda: defined types run
# at the end of the compilation, outside any iteration.
define cleanup() {
  notify { "start ${title}": }
  break()
}
['a', 'b'].each |$x| {
  cleanup { $x: }
}
