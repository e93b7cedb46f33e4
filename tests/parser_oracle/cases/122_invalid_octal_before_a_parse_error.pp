# Puppet's lexer refuses `09` before its parser reaches the error after it.
$mode = 0955
notify { "a": message => 1 + }
