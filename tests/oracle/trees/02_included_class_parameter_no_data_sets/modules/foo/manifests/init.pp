class foo(String $x, String $y) { }
