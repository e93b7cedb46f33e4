/re/
notice(0)
