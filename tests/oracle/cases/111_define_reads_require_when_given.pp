# A define may read $require when the instance is declared with require =>.
notify { 'x': }
define d() {
  notify { "r ${require}": }
}
d { 'a': require => Notify['x'] }
