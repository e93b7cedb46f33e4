define mymod::thing($x) { }
mymod::thing {
  default: x => 1;
  't': ;
  'u': x => 2;
}
