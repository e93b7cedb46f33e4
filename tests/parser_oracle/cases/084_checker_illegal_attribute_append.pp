file { "/x": mode +> "0644" }
File { owner +> "root" }
File["/y"] { group +> "x" }
File <| |> { group +> "x" }
