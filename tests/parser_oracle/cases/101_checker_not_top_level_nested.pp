class a {
  if true {
    class a::b {
    }
  }
}
function f() {
  class c {
  }
}
class d {
  function d::f() { 1 }
}
