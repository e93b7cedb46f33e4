Notify { 'x': }
notify { 'x': }
