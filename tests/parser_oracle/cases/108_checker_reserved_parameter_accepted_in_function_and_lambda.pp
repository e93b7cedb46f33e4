function f($name, $title) { 1 }
[1].each |$name| { notice($name) }
