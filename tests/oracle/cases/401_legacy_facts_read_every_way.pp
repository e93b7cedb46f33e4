# Legacy facts read as variables, top-scope variables and keys of $facts:
# Puppet 7 gives each the fact's value, Puppet 8 none.
# checks: legacy-fact, top-scope-fact
# expect: legacy-fact@8
# expect: legacy-fact@9
# expect: legacy-fact@10
# expect: legacy-fact@11
notify { 'line 8': message => $osfamily }
notify { 'line 9': message => $::osfamily }
notify { 'line 10': message => $facts['osfamily'] }
notify { 'line 11': message => "${::fqdn}" }
notify { 'line 12': message => $facts['os']['family'] }
notify { 'line 13': message => $facts['networking'] }
