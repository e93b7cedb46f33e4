# A selector on a value known from an assignment, with no case for it and
# no default: Puppet fails at the selector.
class app {
  $tier = 'staging'
  $replicas = $tier ? {
    'production' => 3,
    'test'       => 1,
  }
  notify { "replicas ${replicas}": }
}
include app
