# The segment looks like a number with letters glued to it; Puppet still
# reports the qualified name.
class yum::repo::10gen {
  notice(1)
}
