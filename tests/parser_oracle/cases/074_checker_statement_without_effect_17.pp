class a {
  notify { "x": }
  (notice(1))
}
define b {
  notice(1)
  File <| |>
}
class c {
  notice(1)
  $x = 1
  [$x]
}
