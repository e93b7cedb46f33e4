# Pairs are folded only while they follow each other: a value between
# them gives two hashes, and the array has three elements.
define t (Array[Hash, 1, 2] $zone) {
  notify { $title: message => $zone }
}
t { 'x': zone => ['a' => 'foo', 'value', 'b' => 1] }
