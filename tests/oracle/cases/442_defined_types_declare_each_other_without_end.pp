# Two defined types declare each other on every run.
define loop::ping() {
  loop::pong { "${title}-pong": }
}
define loop::pong() {
  loop::ping { "${title}-ping": }
}
class app {
  loop::ping { 'start': }
}
node default {
  include app
}
