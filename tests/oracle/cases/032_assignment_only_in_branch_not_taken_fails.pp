if false { $x = 1 }
notify { "x ${x}": }
