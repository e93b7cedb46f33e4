class common { notify { 'common': } }
class role_a { include common }
class role_b { include common }
node default {
  include role_a
  include role_b
  include common
}
