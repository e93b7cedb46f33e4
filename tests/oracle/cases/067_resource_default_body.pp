file {
  default: mode => '0644';
  '/tmp/a': ;
  '/tmp/b': ;
}
