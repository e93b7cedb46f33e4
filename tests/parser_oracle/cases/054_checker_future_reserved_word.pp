class plan {
}
function f() >> Plan { 1 }
