if true {
  class a {
  }
}
define d {
  class b {
  }
}
node n {
  define e {
  }
}
[1].each |$v| {
  class c {
  }
}
class ok {
  class ok::inner {
  }
  define ok::d {
  }
}
