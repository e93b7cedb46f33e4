# `$module_name` names the module of the code that renders the template:
# motd/motd.erb, whose `scope['::lsbdistcodename']` the oracle's facts
# (Puppet 8's) lack.
node default {
  include motd
}
