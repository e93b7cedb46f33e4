class a inherits c { }
class b inherits a { }
class c inherits b { }
include b
