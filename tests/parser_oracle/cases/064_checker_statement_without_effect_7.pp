-$facts["a"]
notice(0)
