# A class parameter, a local variable, an inherited variable and a lambda
# parameter named like a legacy fact hide the fact: no fact is read there.
# checks: legacy-fact, top-scope-fact
# expect: legacy-fact@16
class by_parameter (String $osfamily = 'RedHat') {
  notify { 'line 6': message => $osfamily }
}
class by_local {
  $osfamily = 'Solaris'
  notify { 'line 10': message => $osfamily }
}
class by_parent inherits by_local {
  notify { 'line 13': message => $osfamily }
}
class by_lambda {
  [1].each |$x| { $hostname = 'inner'; notify { 'line 16': message => $::hostname } }
  [2].each |$hostname| { notify { 'line 17': message => "${hostname}" } }
}
include by_parameter, by_parent, by_lambda
