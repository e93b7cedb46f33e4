class foo(String $x) { }
