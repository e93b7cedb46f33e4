notify { message => "x" }
notice(1)
