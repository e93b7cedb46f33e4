# String in ['x'] is true: a type on the left matches an element that is an instance of it.
if String in ['x'] {
  notify { 'dup': }
}
notify { 'dup': }
