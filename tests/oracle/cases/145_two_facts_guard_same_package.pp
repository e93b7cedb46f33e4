# os.family == 'Debian' and hostname == 'web01' both hold on web01: p declared twice; on db01 only once.
# nodes: web01.example.com, db01.example.com
# expect: possible-duplicate-resource@8
if $facts['os']['family'] == 'Debian' {
  package { 'p': }
}
if $hostname == 'web01' {
  package { 'p': }
}
