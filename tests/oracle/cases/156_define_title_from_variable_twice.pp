# A define title from a variable equals a literal title: duplicate D[a].
define d() {
  notify { "d ${title}": }
}
$t = 'a'
d { $t: }
d { 'a': }
