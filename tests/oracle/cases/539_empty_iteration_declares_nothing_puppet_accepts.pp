# A lambda given an empty array or hash never runs: what it declares is
# not declared, and a parameter it would miss is not missed.
define hook (String $required) {
  notice($required)
}
class hooks (Hash $given = {}) {
  $given.each |$name, $options| { hook { $name: } }
}
node default {
  [].each |$n| { hook { "${n}-a": } }
  each({}) |$k, $v| { hook { "${k}-b": } }
  $mapped = [].map |$n| { hook { "${n}-c": } }
  include hooks
}
