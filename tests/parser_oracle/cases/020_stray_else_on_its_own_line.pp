if true {
  notice('a')
}
notice('b')
else {
  notice('c')
}
