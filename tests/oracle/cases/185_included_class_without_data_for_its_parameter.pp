# No Hiera data: the parameter has no value.
class foo($x) { }
include foo
