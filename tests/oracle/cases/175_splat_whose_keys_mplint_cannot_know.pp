# The key is 'x' for Puppet; mplint cannot know it and says nothing.
define mymod::thing($x) { }
mymod::thing { 't': * => { "x${facts['hostname'][0,0]}" => 1 } }
