unless true { } else { } else { }
