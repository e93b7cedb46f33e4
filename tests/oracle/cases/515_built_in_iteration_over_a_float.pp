# A float is not iterable.
node default {
  $ratio = 3.5
  $ratio.reverse_each |$v| { notice($v) }
}
