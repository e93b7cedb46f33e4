# The oracle gives only osfamily, os, hostname and fqdn, as Puppet 8 gives
# no legacy facts: the hierarchy's `%{::operatingsystem}` is an undefined
# variable, an error at hiera.yaml's line under strict variables.
node default {
  include app
}
