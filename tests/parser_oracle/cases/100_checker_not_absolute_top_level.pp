class a {
  function f() { 1 }
  type X = Integer
}
