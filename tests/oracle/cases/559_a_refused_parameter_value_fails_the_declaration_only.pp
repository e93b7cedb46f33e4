# A value the parameter's type refuses: Puppet fails at the declaration of
# `outer`; the body, which would pass it on to `inner`, never runs.
define inner (Optional[Array] $addresses = undef) {}
define outer (Array $address = []) {
  inner { $title: addresses => $address }
}
outer { 'vlan100': address => '10.0.0.1/24' }
