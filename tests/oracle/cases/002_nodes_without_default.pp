# nodes: web01.example.com, db01.example.com
node 'web01.example.com' { notify { 'web': } }
node 'db01.example.com' { notify { 'db': } }
