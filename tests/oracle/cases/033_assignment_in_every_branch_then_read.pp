if $facts['hostname'] == 'x' { $y = 1 } else { $y = 2 }
notify { "y ${y}": }
