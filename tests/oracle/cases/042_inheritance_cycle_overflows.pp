class base inherits derived { }
class derived inherits base { }
include derived
