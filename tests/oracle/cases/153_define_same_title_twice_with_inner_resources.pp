# A define with inner resources declared twice with the same title: Puppet reports D[a] at the second declaration.
define d() {
  file { "/srv/${title}": }
  notify { "d ${title}": }
}

d { 'a': }

d { 'a': }
