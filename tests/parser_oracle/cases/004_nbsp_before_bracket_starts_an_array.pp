# After whitespace `[` starts an array: `notice [1]`, not an access.
notice [1]
