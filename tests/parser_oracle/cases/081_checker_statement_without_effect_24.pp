node default {
  notify { message => "x" }
}
class a {
  notify { message => "x" }
}
