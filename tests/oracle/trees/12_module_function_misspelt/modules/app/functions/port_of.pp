# A module function in the Puppet language.
function app::port_of(String $name) >> Integer {
  8080
}
