notify { 'x':message => 'y' }
