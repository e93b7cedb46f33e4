class base { notify { 'x': message => 'a' } }
class sub inherits base {
  Notify['x'] { message => 'b' }
}
include sub
