# defined('$notify') guards the read of the metaparameter variable: declared with and without notify =>.
notify { 'x': }
define d() {
  if defined('$notify') {
    notify { "n ${notify}": }
  }
}
d { 'a': notify => Notify['x'] }
d { 'b': }
