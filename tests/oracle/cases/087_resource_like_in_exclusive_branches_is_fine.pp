class db ($port = 1) { }
if $facts['hostname'] == 'x' {
  class { 'db': port => 2 }
} else {
  class { 'db': port => 3 }
}
