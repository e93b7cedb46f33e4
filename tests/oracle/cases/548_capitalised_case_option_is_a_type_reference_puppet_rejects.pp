# A capitalised case option is a type reference since Puppet 4: `RedHat`
# names no type, and comparing the value with it fails.
$family = $facts['os']['family']
case $family {
  RedHat:  { notify { 'httpd': } }
  default: { notify { 'apache2': } }
}
