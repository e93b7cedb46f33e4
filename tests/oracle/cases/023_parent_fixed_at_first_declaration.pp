class shared { notify { "v ${v}": } }
include shared
node default {
  $v = 'node'
  include shared
}
