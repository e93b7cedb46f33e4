notice($0x1)
notice($0)
notice($00)
