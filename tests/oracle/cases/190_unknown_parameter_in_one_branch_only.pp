# nodes: web01.example.com, db01.example.com
define mymod::thing($x = 1) { }
if $facts['hostname'] == 'db01' {
  mymod::thing { 't': y => 1 }
} else {
  mymod::thing { 't': x => 1 }
}
