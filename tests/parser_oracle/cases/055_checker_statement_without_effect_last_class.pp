class a {
  notice(1)
  $x = 1
  $x
}
define d {
  1
}
node default {
  "x"
}
