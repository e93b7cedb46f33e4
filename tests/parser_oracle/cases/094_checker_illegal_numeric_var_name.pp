notice($01)
notice($1a)
