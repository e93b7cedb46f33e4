# expect: node-scope-leak@2
define greeter { notify { "${title}: ${greeting}": } }
node default {
  greeter { 'world': }
  $greeting = 'hi'
}
