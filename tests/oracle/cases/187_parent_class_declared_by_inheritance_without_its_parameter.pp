class a($x) { }
class b inherits a { }
include b
