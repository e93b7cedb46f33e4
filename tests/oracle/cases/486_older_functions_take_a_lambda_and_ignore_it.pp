# hiera() takes a lambda for a default; Puppet's older functions take a
# lambda and ignore it.
$port = hiera('myapp::port') |$key| { 8080 }
$text = sprintf('%s', 'a') |$x| { 'unused' }
notify { "${port} ${text}": }
