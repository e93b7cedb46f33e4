type Foo::Anything = Integer
