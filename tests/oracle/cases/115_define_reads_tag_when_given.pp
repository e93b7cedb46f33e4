# $tag is a variable in a define when the instance is declared with tag =>.
define d() {
  notify { "t ${tag}": }
}
d { 'a': tag => 'web' }
