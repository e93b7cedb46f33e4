(notice(1))
notice(0)
