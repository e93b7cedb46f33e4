class base { notify { "role ${role}": } }
class derived inherits base { }
include derived
node default { }
