define mymod::thing($x) { notify { "x=${x}": } }
mymod::thing { 't': }
Mymod::Thing['t'] { x => 3 }
