# A defined type declares itself with its own title: the second instance
# is a duplicate.
define loop::same() {
  loop::same { $title: }
}
node default {
  loop::same { 'a': }
}
