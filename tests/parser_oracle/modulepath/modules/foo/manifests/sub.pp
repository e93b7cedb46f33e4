# Puppet compares the start of the name only.
class foo::subway {
}
define foo::sub {
}
