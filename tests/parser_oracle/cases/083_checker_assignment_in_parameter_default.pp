class a($x = [$y = 1]) {
}
define d($p = foo($q = 2)) {
}
function f($r = ($s = 3)) { 1 }
class b($t = [1].map |$v| { $w = $v }) {
}
