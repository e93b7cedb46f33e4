if $facts["a"] {}
notice(0)
