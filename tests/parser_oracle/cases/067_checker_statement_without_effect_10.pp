$facts["a"].foo
notice(0)
