if $facts['hostname'] == 'x' {
  package { 'p': }
} else {
  package { 'p': }
}
