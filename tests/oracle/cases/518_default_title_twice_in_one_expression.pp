# Only one body of a resource expression may be its defaults.
node default {
  notify {
    default: message => 'x';
    'a': ;
    default: message => 'y';
  }
}
