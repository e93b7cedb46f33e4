# `key => value` pairs written without braces in a call are one hash
# argument: `inline_epp` is given two arguments here.
node default {
  $text = inline_epp('<%= $machine %>/<%= $login %>',
    machine => 'h',
    login   => 'l',
  )
  notify { $text: }
}
