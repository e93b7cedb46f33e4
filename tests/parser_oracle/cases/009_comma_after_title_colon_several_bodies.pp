notify {
  'a':, message => 'one';
  'b':,
    message => 'two',
    withpath => false,;
  'c':,
}
