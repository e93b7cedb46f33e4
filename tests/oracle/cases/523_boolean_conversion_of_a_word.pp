# `Boolean(x)` takes 'true', 'false', 'yes', 'no', 'y' and 'n' only.
node default {
  $flag = Boolean('enabled')
  notify { "flag ${flag}": }
}
