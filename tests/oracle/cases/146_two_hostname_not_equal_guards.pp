# hostname != 'web01' and hostname != 'db01' both hold on app01 (duplicate); on web01 only the second.
# nodes: web01.example.com, app01.example.com
# expect: possible-duplicate-resource@8
if $hostname != 'web01' {
  package { 'p': }
}
if $hostname != 'db01' {
  package { 'p': }
}
