type Foo inherits Bar {
}
