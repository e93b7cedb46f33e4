# Lambdas with one or two parameters for each(), defaults, a captured rest.
$hash = { 'a' => 1 }
$hash.each |$pair| { notify { "pair ${pair}": } }
$hash.each |$key, $value| { notify { "${key}=${value}": } }
[1].each |*$rest| { notify { "rest ${rest}": } }
$sum = with(1, 2) |$x, $y = 0, *$more| { $x + $y }
$squares = [1, 2].map |$x, $unused = 0| { $x * $x }
notify { "${sum} ${squares}": }
