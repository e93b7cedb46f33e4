$h = { a => { b => 1, b => 2 }, "a" => 3 }
notice($h)
notify { "x": message => { z => 1, z => 2 } }
