# nodes: web01.example.com, web02.example.com, db01.example.com
node /^web/ { notify { 'regex': } }
node 'web01.example.com' { notify { 'exact': } }
node default { notify { 'default': } }
