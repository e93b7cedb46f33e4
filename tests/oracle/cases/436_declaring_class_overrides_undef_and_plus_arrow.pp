# An attribute set to undef is set; `+>` from the declaring class is a
# redefinition as much as `=>`.
# nodes: a.example.com, b.example.com
class undef_mode {
  file { '/srv/u': mode => undef }
  File['/srv/u'] { mode => '0600' }
}
class plus_arrow {
  file { ['/srv/p', '/srv/r1', '/srv/r2']: }
  File['/srv/p'] { require => File['/srv/r1'] }
  File['/srv/p'] { require +> File['/srv/r2'] }
}
node 'a.example.com' {
  include undef_mode
}
node 'b.example.com' {
  include plus_arrow
}
