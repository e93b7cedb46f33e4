# undef given to a defined type's parameter without a default.
define app::port(Integer $port) {
  notify { "${title} on ${port}": }
}
app::port { 'web': port => undef }
