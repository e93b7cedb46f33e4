# Values each type accepts, `undef` for a parameter with a default, and
# types mplint does not judge.
define app::site(
  Integer[1, 65535] $port = 80,
  Optional[String] $owner = undef,
  Numeric $weight = 1,
  Enum['http', 'https'] $scheme = 'http',
  Pattern[/^[a-z]+$/] $zone = 'eu',
  Variant[String, Integer] $id = 1,
  Hash[String, Integer] $limits = {},
  Scalar $label = 'x',
  Any $extra = undef,
) {
  notify { "site ${title} ${port} ${owner} ${weight} ${scheme} ${zone} ${id} ${limits} ${label}": }
}
app::site { 'a': port => 0x50, owner => undef, weight => 1.5, scheme => 'https', zone => 'us', id => 'x1' }
app::site { 'b': port => undef, limits => { 'conn' => 10 }, label => true, extra => [1] }
