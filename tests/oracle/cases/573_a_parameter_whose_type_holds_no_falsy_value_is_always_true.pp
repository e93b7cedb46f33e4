# A parameter typed `String` (or an alias of strings, or `Integer`) is
# never `undef` or `false`: even an empty string is true, so the branch
# that reads a variable no class sets never runs, whatever is passed.
class m (String $cert = '/etc/pki/cert.pem') {}
type M::Path = Pattern[/^\//]
define m::conn (
  String $cacert = '/etc/pki/ca.pem',
  M::Path $key = '/etc/pki/key.pem',
  Integer $port = 0,
) {
  include m
  if $cacert { $_cacert = $cacert } else { $_cacert = $m::cacert }
  unless $key { $_key = $m::key } else { $_key = $key }
  if !$port { notify { "${title} no port: ${m::port}": } }
  notify { "${title} ${_cacert} ${_key}": }
}
m::conn { 'a': cacert => $facts['hostname'], key => "/${facts['fqdn']}", port => length($facts['fqdn']) }
m::conn { 'c': cacert => '' }
