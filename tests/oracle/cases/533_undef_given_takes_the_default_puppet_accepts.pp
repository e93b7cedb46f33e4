# `undef` given for a parameter that has a default gives the default: the
# outer type passes its own parameter on, undef or not.
define inner(Boolean $strip) {
  notify { "${title} strip ${strip}": }
}
define outer(Boolean $strip = true, Optional[Boolean] $keep = undef) {
  inner { $title: strip => $strip }
}
node default {
  outer { 'a': strip => undef }
  outer { 'b': }
}
