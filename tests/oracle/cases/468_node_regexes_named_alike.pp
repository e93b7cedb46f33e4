# Two regular expressions whose names, Puppet's way, are one.
node /^db\d+$/ { }
node /db\d+/ { }
