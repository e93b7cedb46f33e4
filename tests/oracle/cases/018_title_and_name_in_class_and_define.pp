class base { notify { "class ${title} ${name}": } }
define thing { notify { "define ${title} ${name}": } }
node default {
  include base
  thing { 'x': }
}
