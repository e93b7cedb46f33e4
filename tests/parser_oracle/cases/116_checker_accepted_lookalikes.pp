# Puppet accepts all of this.
class a($x = 1, $y = [1].map |$v| { $w = $v $w }) {
  include stdlib
  $facts["a"] =~ /a/
  (notice(1))
  $facts["a"].foo
  $z = $x ? { 1 => 2, default => 3 }
  notify { "t": message => { a => 1, "b" => 1, c => $z } }
  $h = { "A" => 1, "a" => 2, 1 => 1, "1" => 2, 1.0 => 3, File => 1, File => 2, -1 => 1, -1 => 2 }
  case $x {
    1: { notice(1) }
    default: {}
  }
  File <| title == "a" or (tag != "b" and $x == 1) |>
  File["/x"] { mode +> "0644" }
  File <| |> { mode +> "0644" }
  $y.each |$i| { notice($i) }
}
define b(String $p = "x") {
  notice($p)
}
node "a.example.com", /x y/, 1.2.3, default {
  notify { "x": }
}
$foo_bar = 1
$top = 1
$_x = 2
notice($foo_bar, $top, $_x, $a::b, $::top, $0, $10)
$r = [1].map |$a, *$b| { $b }
notice($r)
notice
  ("x")
function plan::x() >> Integer { 1 }
type Foo = Variant[Integer, String]
type Bar = { attributes => { a => Integer } }
$v = 9223372036854775807
notice($v)
include a
