# `site`, `application`, `produces` and `consumes` are plain words since
# Puppet 6: values, type parameters, keys and class names.
class site {
  notify { 'site class': }
}
class pick(Enum[site, application] $scope = site) {
  notify { "scope ${scope}": }
}
node default {
  include site
  class { 'pick': scope => application }
  $h = { 'site' => 1 }
  notice($h[site], produces, consumes)
}
