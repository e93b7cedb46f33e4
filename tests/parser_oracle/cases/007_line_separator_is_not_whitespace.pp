notify { 'x': message => 'y' }
