# The same define without the defined('$notify') guard: the instance declared without notify => fails.
notify { 'x': }
define d() {
  notify { "n ${notify}": }
}
d { 'a': notify => Notify['x'] }
d { 'b': }
