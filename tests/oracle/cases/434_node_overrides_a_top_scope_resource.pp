# A node overrides a resource declared at top scope: the node is not a
# subclass of top scope.
file { '/etc/issue': mode => '0644' }
node default {
  File['/etc/issue'] { owner => 'root' }
}
