# An EPP template without a parameter list gets a variable for each key of
# the hash `epp()` passes; `epp()` also sees node scope. None of these
# reads is a fact.
node default {
  $domain = 'example.net'
  include ntp
}
