# The same define title declared from two included classes: duplicate D[a] at the second class's declaration.
define d() {
  notify { "d ${title}": }
}
class one { d { 'a': } }
class two { d { 'a': } }
include one
include two
