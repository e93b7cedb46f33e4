# No signature of `unique` takes undef.
define dedupe($items = undef) {
  $once = unique($items)
}
node default {
  dedupe { 'x': }
}
