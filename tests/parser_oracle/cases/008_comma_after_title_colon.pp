notify { 'x':, message => 'y' }
