class app (Integer $port, String $motd) {
  notify { "port ${port}: ${motd}": }
}
