$type = 'notify'
$type { 'x': message => 'y' }
