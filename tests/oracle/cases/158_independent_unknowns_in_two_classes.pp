# Two classes guard the same package on different facts: duplicate only where both hold (web01.example.com).
# nodes: web01.example.com, web01.example.org, db01.example.com
# expect: possible-duplicate-resource@8
class a {
  if $hostname =~ /^web/ { package { 'p': } }
}
class b {
  if $fqdn =~ /\.com$/ { package { 'p': } }
}
node default {
  include a
  include b
}
