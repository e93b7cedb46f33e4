class a($1) {
}
define d($0x1) {
}
