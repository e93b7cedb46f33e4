# graph: cycles
# Two classes that contain each other.
class a {
  contain b
}
class b {
  contain a
}
node default {
  include a
}
