# Define titles are case-sensitive: D[a] and D[A] are distinct instances.
define d() {
  notify { "d ${title}": }
}
d { 'a': }
d { 'A': }
