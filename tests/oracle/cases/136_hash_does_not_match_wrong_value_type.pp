# {'a' => 1} =~ Hash[String, String] is false: the guarded notify is skipped.
$h = { 'a' => 1 }
if $h =~ Hash[String, String] {
  notify { 'dup': }
}
notify { 'dup': }
