class a($x, $y, $x) {
}
define d($p, $p = 1) {
}
function f($q, $q) { 1 }
[1].each |$v, $v| { notice($v) }
