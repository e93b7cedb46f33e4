# expect: none
class base { notify { 'x': message => 'a' } }
class other {
  include base
  Notify['x'] { message => 'b' }
}
include other
