# The lambda's default is taken, and its type refuses it.
node default {
  with('web') |$name, String $port = 8080| {
    notify { "${name} ${port}": }
  }
}
