# A Struct's bare-word keys name its members: a hash with another key
# does not match.
define check_options(Struct[{port => Integer}] $opts) {
  notify { $title: }
}
node default {
  check_options { 'a': opts => { 'port' => 80 } }
  check_options { 'b': opts => { host => 'x' } }
}
