# Classes are neither virtual nor exported: they cannot be collected.
class app {
  @notify { 'app': }
}
node default {
  include app
  Class <| |>
}
