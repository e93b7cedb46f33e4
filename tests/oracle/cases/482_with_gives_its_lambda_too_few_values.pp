# with() gives its lambda the arguments it is given: one here.
$total = with(1) |$x, $y| { $x + $y }
notify { "${total}": }
