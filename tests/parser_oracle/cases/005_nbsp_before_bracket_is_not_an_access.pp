$list = [1, 2]
notice($list [0])
