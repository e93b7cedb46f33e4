class a($name) {
}
define d($title, $name) {
}
