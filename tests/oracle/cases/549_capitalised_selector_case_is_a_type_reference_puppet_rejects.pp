# The same in a selector.
$family = $facts['os']['family']
$package = $family ? {
  Debian  => 'apache2',
  default => 'httpd',
}
notify { $package: }
