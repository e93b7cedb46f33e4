# Pairs then a plain argument: a hash and a third argument, one too many.
node default {
  $text = inline_epp('<%= $machine %>', machine => 'h', 'extra')
  notify { $text: }
}
