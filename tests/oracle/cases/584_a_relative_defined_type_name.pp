# Puppet 3 found `solr::config` for `config` in class `solr`; Puppet 4
# and later look for a top-level type `config` only.
define solr::config($value) {
  notify { "solr ${title} ${value}": }
}
class solr {
  config { 'cores': value => 2 }
}
node default {
  include solr
}
