class inner { notify { "v is ${v}": } }
class outer { include inner }
include outer
node default {
  $v = 'from node'
}
