# Overrides Puppet applies: from a subclass (directly or through another),
# `+>` from a subclass, from the declaring class or defined type for an
# attribute it did not set, from top scope on a top-scope resource, and an
# override equal to a resource default of the declaring scope.
class base {
  file { '/srv/a': mode => '0644', require => File['/srv/r1'] }
  file { ['/srv/b', '/srv/r1', '/srv/r2']: }
  File['/srv/b'] { owner => 'root' }
}
class base::child inherits base {
  File['/srv/a'] { mode => '0600' }
  File['/srv/a'] { require +> File['/srv/r2'] }
}
class base::grandchild inherits base::child {
  File['/srv/b'] { owner => 'admin' }
  File['/srv/a'] { mode => '0640' }
}
define site($port) {
  file { "/srv/site-${title}": mode => '0644' }
  File["/srv/site-${title}"] { owner => 'www' }
}
class defaults {
  File { group => 'staff' }
  file { '/srv/c': group => 'wheel' }
}
class defaults::child inherits defaults {
  File['/srv/c'] { group => 'staff' }
  File['/srv/c'] { group => 'staff' }
}
file { '/srv/top': mode => '0644' }
File['/srv/top'] { owner => 'root' }
node default {
  include base::grandchild
  include defaults::child
  site { 'www': port => 80 }
}
