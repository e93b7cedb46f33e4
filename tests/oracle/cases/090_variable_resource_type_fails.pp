# A variable holding a type is not a resource type to Puppet.
$kind = Notify
$kind { 'x': message => 'y' }
