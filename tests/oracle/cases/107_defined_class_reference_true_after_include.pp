# defined(Class['x']) after include x is true: the guarded notify duplicates the later one.
class x { }
include x
if defined(Class['x']) {
  notify { 'dup': }
}
notify { 'dup': }
