# `max()` without values or a lambda fails.
node default {
  $largest = max()
  notify { "largest ${largest}": }
}
