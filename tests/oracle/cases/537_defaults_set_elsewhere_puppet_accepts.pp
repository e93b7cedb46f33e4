# A defined type's default is not what its body gets when a resource
# default, an override or a collector sets the attribute.
define show($opts = 5) {
  notify { "${title} ${keys($opts)}": }
}
define count($text = 'many') {
  notify { "${title} ${Integer($text)}": }
}
node default {
  Show { opts => { 'b' => 1 } }
  show { 'a': }
  count { 'c': }
  Count <| title == 'c' |> { text => '12' }
}
