# $name is built in: a node cannot set it.
node default {
  $name = 'web'
  notify { $name: }
}
