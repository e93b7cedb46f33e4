# Comparing with RedHat looks up a resource type RedHat, which does not exist; the test after `and` never runs.
if $facts['hostname'] == 'db01' and $facts['osfamily'] == Debian {
  notify { 'never': }
}
if $facts['osfamily'] in ['Debian', RedHat] {
  notify { 'debian': }
}
