# Optional arguments and lambdas, method calls counting their receiver,
# and splats.
$names = ['b', 'a']
$args = [$names, '-']
notify { join($names): }
notify { join(*$args): }
notify { $names.join(', '): }
$sorted = sort($names) |$x, $y| { compare($x, $y) }
$first = $names.reduce |$memo, $x| { $memo }
notify { "${sorted} ${first} ${max(1, 2, 3)}": }
