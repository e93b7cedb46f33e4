# Automatic parameter lookup serves resource-like declarations too.
node default {
  class { 'foo': y => 'given' }
}
