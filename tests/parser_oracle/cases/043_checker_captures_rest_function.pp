function f(*$a, $b) { $a }
