notice(1)
$x
notice(2)
1 + 2
notice(3)
