# `${if['a']}` reads `$if`, which nothing sets.
$config = { 'a' => 1 }
notify { "value ${if['a']}": }
