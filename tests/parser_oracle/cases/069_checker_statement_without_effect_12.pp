default
notice(0)
