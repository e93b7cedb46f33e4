class foo::ok {
  include foo
}
