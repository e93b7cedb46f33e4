class foo (
  bar = 'x',
) {
}
