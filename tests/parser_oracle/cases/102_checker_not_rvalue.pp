$x = File <| |>
notice(Foo <<| |>>)
$y = class b {
}
