# Two independent class parameters from different facts: both hold only on web01.prod.example.com (duplicate).
# nodes: web01.prod.example.com, web01.dev.example.com, db01.prod.example.com
# expect: possible-duplicate-resource@12
class main (
  $web  = $hostname =~ /^web/,
  $prod = $fqdn =~ /\.prod\./,
) {
  if $web {
    package { 'nginx': }
  }
  if $prod {
    package { 'nginx': }
  }
}
