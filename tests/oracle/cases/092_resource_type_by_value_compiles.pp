# Resource[...] names a resource type by value.
$kind = 'notify'
Resource[$kind] { 'x': message => 'y' }
