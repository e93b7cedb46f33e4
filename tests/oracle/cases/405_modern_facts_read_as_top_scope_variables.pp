# Modern facts read as top-scope variables work in every Puppet: a note
# with the $facts form.
# checks: legacy-fact, top-scope-fact
# expect: top-scope-fact@7
# expect: top-scope-fact@8
class show {
  notify { 'line 7': message => $::os }
  notify { 'line 8': message => "${os['family']}" }
  notify { 'line 9': message => $facts['os'] }
}
include show
