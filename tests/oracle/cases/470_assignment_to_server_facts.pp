# $server_facts is Puppet's own, like $facts and $trusted.
class report {
  $server_facts = { 'serverversion' => '7' }
  notify { "${server_facts}": }
}
include report
