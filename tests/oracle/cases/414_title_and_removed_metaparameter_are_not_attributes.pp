# `title` is not an attribute, and `consume`/`export` went with
# application orchestration.
# nodes: a.example.com, b.example.com
node 'a.example.com' {
  notify { 'x': title => 'y' }
}
node 'b.example.com' {
  notify { 'm': }
  notify { 'n': consume => Notify['m'] }
}
