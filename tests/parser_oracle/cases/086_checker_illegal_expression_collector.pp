Resource["file"] <| |>
