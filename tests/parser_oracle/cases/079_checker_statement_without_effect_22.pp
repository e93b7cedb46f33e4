$a = 1
$a == 1
notice(1)
