define mymod::thing($x) { notify { "x=${x}": } }
mymod::thing { 't': }
Mymod::Thing <| title == 't' |> { x => 3 }
