$enable = true
if $enable { $mode = 'on' }
notify { "mode ${mode}": }
