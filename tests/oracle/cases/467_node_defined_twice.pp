# Two nodes Puppet names alike: names ignore case.
node 'web01.example.com', 'web02.example.com' {
  notify { 'web': }
}
node 'WEB02.example.com' {
  notify { 'other': }
}
