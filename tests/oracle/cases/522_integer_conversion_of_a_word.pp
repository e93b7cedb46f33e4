# `Integer.new` takes strings that are integers only.
node default {
  $count = 'eleven'
  $n = Integer.new($count)
  notify { "n ${n}": }
}
