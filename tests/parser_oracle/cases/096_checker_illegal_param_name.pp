class a($Foo) {
}
define d($a::b) {
}
