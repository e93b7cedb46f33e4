# $stage is not set in a define (a define may not even take stage =>): Unknown variable.
define d() {
  notify { "s ${stage}": }
}
d { 'a': }
