# expect: node-scope-leak@4
define d ($modeArg = 123) {
  file { "from_define":
    path => $path,
    mode => $modeArg,
  }
}
node default {
  d { "service3": }
  $path = "/path"
}
