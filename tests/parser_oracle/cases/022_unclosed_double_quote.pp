notify { 'x':
  message => "unclosed,
}
