# A parameter hides a legacy fact wherever Puppet looks it up: in a later
# parameter's default, in a defined type's body, in a class inheriting it.
# A lambda's local does not outlive the lambda; a resource default reads
# the fact.
# checks: legacy-fact, top-scope-fact
# expect: legacy-fact@20
# expect: legacy-fact@23
class by_default ($hostname = 'param', $label = $hostname) {
  notify { 'line 9': message => $label }
}
define by_define ($osfamily = 'param') {
  notify { 'line 12': message => $osfamily }
}
class parent_params ($fqdn = 'inherited') { }
class by_inherited_parameter inherits parent_params {
  notify { 'line 16': message => $fqdn }
}
class after_lambda {
  [1].each |$x| { $hostname = 'inner' }
  notify { 'line 20': message => $hostname }
}
class by_resource_default {
  Notify { message => $osfamily } notify { 'line 23': }
}
include by_default, by_inherited_parameter, after_lambda, by_resource_default
by_define { 'x': }
