class base { notify { "module ${module_name}": } }
include base
