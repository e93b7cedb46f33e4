# Only a type's access may be called.
$list = [1]
notice($list[0](2))
