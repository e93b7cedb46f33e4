# Values the Variant, NotUndef, sized, Struct and aliased types accept, and
# types mplint does not judge.
type App::Port = Integer[1, 65535]
type App::Endpoint = Struct[{ 'host' => String[1], Optional['port'] => App::Port }]
type App::Tree = Variant[String, Array[App::Tree]]
define app::site(
  Variant[Integer, Enum['auto']] $workers = 'auto',
  NotUndef[String] $owner = 'root',
  String[2, 8] $zone = 'eu',
  Array[String, 1, 2] $aliases = ['www'],
  Hash[String, Integer, 1] $limits = { 'conn' => 1 },
  Struct[{ 'user' => String, Optional['uid'] => Integer, 'shell' => Optional[String] }] $account = { 'user' => 'app' },
  App::Port $port = 80,
  App::Endpoint $backend = { 'host' => 'db' },
  App::Tree $tree = 'leaf',
  Integer[default, 10] $level = 1,
  String[1, default] $label = 'x',
  Pattern[/^a,b$/, /^[0-9]+$/] $code = '1',
) {
  notify { "site ${title} ${workers} ${owner} ${zone} ${aliases} ${limits} ${account} ${port} ${backend} ${tree} ${level} ${label} ${code}": }
}
app::site { 'a': workers => 4, owner => 'app', zone => 'eu-west1', aliases => ['a', 'b'], limits => { 'x' => 1, 'y' => 2 } }
app::site { 'b': account => { 'user' => 'app', 'uid' => 10 }, port => 65535, backend => { 'host' => 'db', 'port' => 5432 } }
app::site { 'c': account => { 'user' => 'app', 'shell' => undef }, tree => ['a', ['b', 'c']], level => -5, label => 'long label' }
app::site { 'd': code => 'a,b', workers => 'auto', zone => 'ab' }
