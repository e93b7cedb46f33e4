function string() { 1 }
class integer::foo {
}
define Plan {
}
class plan::x {
}
