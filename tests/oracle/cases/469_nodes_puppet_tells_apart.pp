# A name and a regular expression, and two names, that differ.
node 'web01.example.com' { notify { 'name': } }
node /web01/ { notify { 'regex': } }
node 'web01.example.org' { }
node default { }
