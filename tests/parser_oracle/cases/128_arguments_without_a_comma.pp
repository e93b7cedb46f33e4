# Two arguments without a comma between them.
notice('a' 'b')
