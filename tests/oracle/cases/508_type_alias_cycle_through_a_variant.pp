# A Variant of aliases that all come back to it.
type Foo = Bar
type Fee = Foo
type Bar = Variant[Fee, Foo]
node default {
  notify { 'check':
    message => 0 =~ Bar,
  }
}
