type Foo = [Integer]
