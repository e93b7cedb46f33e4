if $facts["x"] {
  "hello"
  notice(1)
}
class a {
  [1, 2]
  notice(2)
}
