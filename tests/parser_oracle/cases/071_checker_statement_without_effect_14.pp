$x = $facts
$x (1)
notice(0)
