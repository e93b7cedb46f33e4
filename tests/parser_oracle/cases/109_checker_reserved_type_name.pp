class integer {
}
define string {
}
function any() { 1 }
type Integer = String
