class ntp {
  notify { "servers ${servers}": }
  $servers = 'pool'
}
include ntp
