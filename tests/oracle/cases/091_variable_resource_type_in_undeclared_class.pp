# expect: illegal-resource-type@4
# No node declares the class, so Puppet compiles; the resource is a latent bug.
class files(String $kind = 'file') {
  $kind { '/tmp/x': ensure => file }
}
