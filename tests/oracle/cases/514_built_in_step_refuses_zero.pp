# `step` takes a step of at least 1.
node default {
  $every = 2
  [1, 2, 3].step($every - 2) |$x| { notice($x) }
}
