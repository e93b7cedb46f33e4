node default {
  include foo
}
