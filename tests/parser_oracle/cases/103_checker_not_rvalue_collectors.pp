$x = [File <| |>]
$y = { a => File <| |> }
notify { "x": message => File <| |> }
$z = !File <| |>
File <| |> -> Notify <| |>
notice(File <| |>)
$w = (File <| |>)
notice($x, $y, $z, $w)
