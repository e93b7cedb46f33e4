# Under unless $jks the selector gave '/y', so file { $target: } and file { '/x': } are distinct on every node.
# nodes: web01.example.com, db01.example.com
$jks = $hostname == 'web01'
$target = $jks ? { true => '/x', default => '/y' }
unless $jks {
  file { $target: }
  file { '/x': }
}
