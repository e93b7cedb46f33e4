define greeter { notify { "${title}: ${greeting}": } }
greeter { 'world': }
node default {
  $greeting = 'hi'
}
