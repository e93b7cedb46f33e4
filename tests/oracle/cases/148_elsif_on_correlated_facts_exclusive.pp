# The same two tests as if/elsif are exclusive: p is declared at most once on every node.
# nodes: web01.example.com, db01.example.com
if $hostname == 'web01' {
  package { 'p': }
} elsif $fqdn == 'web01.example.com' {
  package { 'p': }
}
