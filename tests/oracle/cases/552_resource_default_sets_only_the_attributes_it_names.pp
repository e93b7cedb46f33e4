# A resource default of a defined type sets the attributes it names, and
# only those: a parameter it does not name still needs a value.
define app::handler ($server, $port) {
  notify { "${title} ${server}:${port}": }
}
App::Handler { server => 'example' }
app::handler { 'a': }
