@user { 'bob': }
realize(User['bob'])
realize(User['bob'])
