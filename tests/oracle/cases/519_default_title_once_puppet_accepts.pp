# One defaults body per expression: each expression may have its own.
node default {
  notify {
    default: message => 'x';
    'a': ;
  }
  notify {
    default: message => 'y';
    'b': ;
  }
}
