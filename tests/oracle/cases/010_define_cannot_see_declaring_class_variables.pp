define show { notify { "secret ${secret}": } }
class holder {
  $secret = 's3cret'
  show { 'x': }
}
node default { include holder }
