# expect: inheritance-cycle@2
class base inherits derived { }
class derived inherits base { }
notify { 'fine': }
