# Lambdas and functions have scopes of their own: they may set $name.
function label() >> String {
  $name = 'from function'
  $name
}
['a'].each |$x| {
  $name = "from lambda ${x}"
  notify { $name: }
}
notify { label(): }
