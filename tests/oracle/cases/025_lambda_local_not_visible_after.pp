[1].each |$i| { $inside = $i }
notify { "inside ${inside}": }
