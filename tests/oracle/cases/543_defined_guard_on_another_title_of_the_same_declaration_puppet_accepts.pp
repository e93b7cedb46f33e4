# Both classes declare the two directories only if the second is not
# declared yet: once `a` has, the block in `b` does not run, so `/tmp/f`
# is declared once.
class a {
  if ! defined(File['/tmp/f/d']) {
    file { ['/tmp/f', '/tmp/f/d']: ensure => directory }
  }
}
class b {
  include a
  if ! defined(File['/tmp/f/d']) {
    file { ['/tmp/f', '/tmp/f/d']: ensure => directory }
  }
}
include b
