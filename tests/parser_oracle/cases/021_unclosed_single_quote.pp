notify { 'x':
  message => 'unclosed,
}
