$x = 'top'
class base {
  $x = 'class'
  notify { "x ${x}": }
}
include base
