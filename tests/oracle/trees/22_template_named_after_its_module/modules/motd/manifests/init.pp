class motd {
  file { '/etc/motd':
    content => template("${module_name}/motd.erb"),
  }
}
