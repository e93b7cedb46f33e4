class greeter { notify { "greeting ${greeting}": } }
node default {
  include greeter
  $greeting = 'hi'
}
