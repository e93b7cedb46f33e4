class foo {
}
include foo
$x = 1
node default {
}
