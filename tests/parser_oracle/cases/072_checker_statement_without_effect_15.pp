$x = 1
$x ? { 1 => 2 }
notice(0)
