# Puppet's grammar wants at least one option in a case.
$d = 'none'
case $d {
  'none': { notice('a') }
}
case $d {
}
