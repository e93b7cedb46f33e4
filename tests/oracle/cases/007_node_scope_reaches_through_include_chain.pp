# expect: node-scope-leak@2
class inner { notify { "v is ${v}": } }
class outer { include inner }
node default {
  $v = 'from node'
  include outer
}
