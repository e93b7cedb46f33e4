unless $facts["a"] {}
notice(0)
