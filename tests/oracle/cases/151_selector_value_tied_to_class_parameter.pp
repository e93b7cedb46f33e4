# The same with $jks a class parameter defaulting from the hostname: duplicate on web01, db01 compiles.
# nodes: web01.example.com, db01.example.com
class main ($jks = $hostname == 'web01') {
  $path = $jks ? { true => '/x', default => '/y' }
  if $jks {
    file { $path: }
    file { '/x': }
  }
}
