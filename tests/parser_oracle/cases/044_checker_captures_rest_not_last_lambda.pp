[1].each |*$a, $b| { notice($a) }
