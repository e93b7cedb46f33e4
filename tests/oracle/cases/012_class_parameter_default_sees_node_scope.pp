# expect: node-scope-leak@2
class timesync ($servers = $ntp_servers) {
  notify { "servers ${servers}": }
}
node default {
  $ntp_servers = 'pool.ntp.org'
  include timesync
}
