# `empty(undef)` is true: the branches that need a string run only when
# one was given, in both call forms.
define mydef (String $s) {
  notify { $title: message => $s }
}
define fw (Optional[String] $seltype = undef) {
  if !empty($seltype) {
    mydef { "x-${title}": s => $seltype }
  }
  unless $seltype.empty {
    mydef { "y-${title}": s => $seltype }
  }
}
fw { 'a': }
fw { 'b': seltype => 'port_t' }
