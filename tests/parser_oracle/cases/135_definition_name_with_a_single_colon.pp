# A single colon in a class name: Puppet's parser stops at the colon, not
# at the brace the header would need next.
class profile::db:replica {
  notify { 'replica': }
}
