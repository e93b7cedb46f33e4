# The oracle's facts are Puppet 8's (no `operatingsystem`): the template's
# `scope['::operatingsystem']` fails the template() call under strict
# variables. `@hostname` is the class's own variable, not the fact.
node default {
  include ntp
}
