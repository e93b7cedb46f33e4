# Puppet 3 read `RedHat-Fedora` as one string; Puppet 4 and later read
# `RedHat - Fedora` and fail on the type reference `RedHat`.
class distro {
  case "${facts['os']['family']}-${facts['os']['name']}" {
    RedHat-Fedora: { notify { 'fedora': } }
    default:       { notify { 'others': } }
  }
}
node default {
  include distro
}
