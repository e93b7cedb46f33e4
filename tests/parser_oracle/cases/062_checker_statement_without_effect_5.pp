File
notice(0)
