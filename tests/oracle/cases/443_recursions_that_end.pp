# Recursions Puppet finishes: a condition stops each, deeper than mplint
# follows; a define declaring another define is no recursion.
define countdown(Integer $n) {
  if $n > 0 {
    countdown { "c${$n - 1}": n => $n - 1 }
  }
}
define tree(Array[String] $children = []) {
  $children.each |$child| {
    tree { "${title}/${child}": }
  }
}
define leaf() {
  notify { "leaf ${title}": }
}
define branch() {
  leaf { $title: }
}
node default {
  countdown { 'c150': n => 150 }
  tree { 'root': children => ['a', 'b'] }
  branch { 'x': }
}
