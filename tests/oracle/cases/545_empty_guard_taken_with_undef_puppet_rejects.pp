# `empty(undef)` is true, so this branch runs with the parameter undef.
define mydef (String $s) {
  notify { $title: message => $s }
}
define fw (Optional[String] $seltype = undef) {
  if empty($seltype) {
    mydef { "x-${title}": s => $seltype }
  }
}
fw { 'a': }
