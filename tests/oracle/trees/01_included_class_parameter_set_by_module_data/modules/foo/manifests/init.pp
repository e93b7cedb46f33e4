class foo(String $x) { notify { "x=${x}": } }
