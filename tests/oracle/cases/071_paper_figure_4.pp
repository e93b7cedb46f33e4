# nodes: ssh.example.com
class ssh::params {
  case $::osfamily {
    "Debian": { $sshd_package = "ssh" }
    "RedHat": { $sshd_package = "openssh-server" }
    default: { fail("SSH class not supported") }
  }
}
class ssh ($ssh_pkg = $::ssh::params::sshd_package) inherits ssh::params {
  package { $ssh_pkg:
    ensure => installed,
  }
}
node "ssh.example.com" {
  include ssh
}
