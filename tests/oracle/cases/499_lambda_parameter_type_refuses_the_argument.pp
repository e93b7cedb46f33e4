# `with` passes its arguments to the lambda, whose types refuse them.
node default {
  with(8080) |String $port| {
    notify { "port ${port}": }
  }
}
