class timesync ($servers = $ntp_servers) {
  notify { "servers ${servers}": }
}
include timesync
