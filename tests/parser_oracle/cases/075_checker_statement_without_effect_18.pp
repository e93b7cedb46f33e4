if $facts["a"] {
  $x = 1
  $x
} else {
  "y"
  notice(1)
}
$y = [1].map |$v| { $v $v }
notice($y)
