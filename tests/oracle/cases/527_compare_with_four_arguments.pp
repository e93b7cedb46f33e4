# `compare` takes two values and, for strings, whether to ignore case.
node default {
  $order = compare('a', 'b', false, false)
  notify { "order ${order}": }
}
