# Read before the class assigns a local of the same name: Puppet 7 reads
# the fact there, the local after.
# checks: legacy-fact, top-scope-fact
# expect: legacy-fact@6
class early {
  notify { 'line 6': message => $hostname }
  $hostname = 'local'
  notify { 'line 8': message => $hostname }
}
include early
