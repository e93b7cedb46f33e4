$x = private
$y = attr
notice($x, $y)
