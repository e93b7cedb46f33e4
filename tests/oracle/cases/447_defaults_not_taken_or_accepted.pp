# Defaults their types accept, and refused defaults that are never taken: a
# value is given, a resource default gives one, or a splat does.
class app(
  Optional[String] $owner = undef,
  Variant[Undef, Integer] $port = undef,
  Any $extra = undef,
  Integer $workers = '4',
) {
  notify { "app ${owner} ${port} ${extra} ${workers}": }
}
define app::site(Boolean $tls = 'yes', String $zone = undef) {
  notify { "site ${title} ${tls} ${zone}": }
}
class { 'app': workers => 8 }
App::Site { tls => true }
app::site { 'a': zone => 'eu' }
app::site { 'b': * => { 'zone' => 'us' } }
