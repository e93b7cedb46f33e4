notify { 'x': message => 'y' }
