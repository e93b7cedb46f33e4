class base { notify { 'base': } }
class a { require base }
class b { contain base }
node default {
  include a
  include b
}
