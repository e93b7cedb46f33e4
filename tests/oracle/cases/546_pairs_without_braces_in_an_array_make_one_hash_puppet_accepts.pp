# Key-value pairs written in an array without braces make one hash,
# as in call arguments: the array holds one element with both keys.
define t (Array[Struct[{a => String[1], b => Integer}], 1, 1] $zone) {
  notify { $title: message => $zone }
}
t { 'x': zone => ['a' => 'foo', 'b' => 1] }
t { 'y': zone => [{ 'a' => 'bar', 'b' => 2 }] }
