class Foo {
}
define _bar {
}
function A() { 1 }
class foo::_bar {
}
class foo-bar {
}
class ::abs {
}
