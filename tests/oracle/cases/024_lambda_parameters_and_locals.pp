$items = ['a', 'b']
$items.each |$item| {
  $upper = upcase($item)
  notify { "item ${item} ${upper}": }
}
