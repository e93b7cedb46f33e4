notice($Foo)
notice($a::B)
notice($_a::b)
notice($a::_b)
