notify { message => "x" }
