foo
notice(0)
