# expect: none
# Only classes may set stage: a define instance with stage => is an evaluation error.
define d() {
  notify { "d ${title}": }
}
d { 'a': stage => 'main' }
