# A flag chooses a path with a selector in the class body and is tested again
# inside an `each` block: the same condition, so the define declared under it
# only sees the path the selector chose for a true flag, never undef.
class java ($pkg = {'version' => '8'}) { }
define jcert ($path = undef) {
  if $path != undef {
    $store = "-keystore ${path}"
  } else {
    $store = $java::pkg['version']
  }
  notify { "${title} ${store}": }
}
class trusted ($jks = false, $certs = []) {
  $store_path = $jks ? {
    true    => '/x',
    default => undef,
  }
  $certs.each |$cert| {
    if $jks {
      jcert { $cert: path => $store_path }
    }
  }
}
class prof ($jks = $facts['os']['family'] == 'Debian') {
  class { 'trusted': jks => $jks, certs => ['a'] }
}
node default { include prof }
