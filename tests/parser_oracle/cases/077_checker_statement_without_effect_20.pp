$h = { "a" => 1 }
$h["a"]
notice(1)
