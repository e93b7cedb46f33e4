define mymod::thing(Optional[String] $x) { }
mymod::thing { 't': }
