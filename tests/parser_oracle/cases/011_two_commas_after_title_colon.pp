notify { 'x':,, message => 'y' }
