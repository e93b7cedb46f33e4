# Puppet's validator accepts it; its evaluator fails on the resource.
package { 'nginx':
  ensure => installed,
  ensure => latest,
}
