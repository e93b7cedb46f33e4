$x = 1
unless $x == 1 { $y = 'a' } else { $y = 'b' }
notify { "y ${y}": }
