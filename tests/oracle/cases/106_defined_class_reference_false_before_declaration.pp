# defined(Class['x']) is false for a class that exists but is not declared: the guarded notify is skipped.
class x { }
if defined(Class['x']) {
  notify { 'dup': }
}
notify { 'dup': }
