# $path is '/x' exactly when $jks holds, so under if $jks file { $path: } duplicates file { '/x': } on web01; db01 compiles.
# nodes: web01.example.com, db01.example.com
$jks = $hostname == 'web01'
$path = $jks ? { true => '/x', default => undef }
if $jks {
  file { $path: }
  file { '/x': }
}
