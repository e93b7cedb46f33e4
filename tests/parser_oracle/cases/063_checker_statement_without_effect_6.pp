$facts["a"] =~ /a/
notice(0)
