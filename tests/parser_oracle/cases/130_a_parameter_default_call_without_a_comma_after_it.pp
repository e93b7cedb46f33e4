class foo(
  $a = hiera('a')
  $b = decrypt(hiera('b'))
) {}
