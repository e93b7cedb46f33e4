function foo::wrong() {
  1
}
