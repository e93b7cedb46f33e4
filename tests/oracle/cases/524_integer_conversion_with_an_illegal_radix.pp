# A radix other than 2, 8, 10 and 16.
node default {
  $n = Integer('10', 3)
  notify { "n ${n}": }
}
