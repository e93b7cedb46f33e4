# Both variables hold the same lookup: the notify is declared once whatever
# the data says (here the default, so the node's branch declares nothing).
$services = lookup('services', Array, 'first', [])
class mail {
  $local_services = lookup('services', Array, 'first', [])
  if !('mx' in $local_services) {
    notify { 'mynetworks': }
  }
}
node default {
  include mail
  if 'mx' in $services {
    notify { 'mynetworks': }
  }
}
