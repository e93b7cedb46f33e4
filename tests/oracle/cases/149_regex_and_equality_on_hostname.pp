# hostname =~ /^web/ and hostname == 'web01' both hold on web01 (duplicate); on web02 only the first.
# nodes: web01.example.com, web02.example.com
# expect: possible-duplicate-resource@8
if $hostname =~ /^web/ {
  package { 'p': }
}
if $hostname == 'web01' {
  package { 'p': }
}
