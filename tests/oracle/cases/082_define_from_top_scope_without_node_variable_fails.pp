define show { notify { "role ${role}": } }
class holder { show { 'x': } }
include holder
node default { }
