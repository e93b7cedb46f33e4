class a {
  $facts["x"] =~ /a/
}
class b {
  notify { x: } -> notify { y: }
}
class c {
  "${notice(1)}"
}
