# An element of the array is not of the lambda parameter's type.
node default {
  [80, '443'].each |Integer $port| {
    notify { "port ${port}": }
  }
}
