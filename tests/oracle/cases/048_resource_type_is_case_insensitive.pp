notify { 'x': }
Notify { 'x': }
