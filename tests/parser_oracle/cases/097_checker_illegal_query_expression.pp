File <| mode > 1 |>
File <| title =~ "x" |>
File <| (title == "a") and tag == "b" |>
File <| $x |>
