class a { }
class a { }
include a
