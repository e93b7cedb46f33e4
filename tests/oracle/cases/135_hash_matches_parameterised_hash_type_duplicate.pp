# {'a' => 1} =~ Hash[String, Integer] is true: the guarded notify duplicates the later one.
$h = { 'a' => 1 }
if $h =~ Hash[String, Integer] {
  notify { 'dup': }
}
notify { 'dup': }
