# $tag is not set in a define whose instance has no tag =>: Unknown variable.
define d() {
  notify { "t ${tag}": }
}
d { 'a': }
