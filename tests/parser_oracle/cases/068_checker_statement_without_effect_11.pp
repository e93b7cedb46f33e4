undef
notice(0)
