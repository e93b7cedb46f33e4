# epp() evaluates its template in top scope: `$ipaddress` is the legacy
# fact, which the oracle's facts (Puppet 8's) lack; the class's own
# `$ipaddress` is not seen there.
node default {
  include ntp
}
