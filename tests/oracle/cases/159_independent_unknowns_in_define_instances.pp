# Two define instances whose parameters come from different facts: duplicate only where both are true.
# nodes: web01.example.com, db01.example.com, web01.example.org
# expect: possible-duplicate-resource@6
define site ($ssl) {
  if $ssl {
    file { '/etc/ssl/site': }
  }
}
site { 'a': ssl => $hostname =~ /^web/ }
site { 'b': ssl => $fqdn =~ /\.com$/ }
