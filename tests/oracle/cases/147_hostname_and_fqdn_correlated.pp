# hostname == 'web01' and fqdn == 'web01.example.com' hold together on web01: duplicate; db01 compiles.
# nodes: web01.example.com, db01.example.com
# expect: possible-duplicate-resource@8
if $hostname == 'web01' {
  package { 'p': }
}
if $fqdn == 'web01.example.com' {
  package { 'p': }
}
