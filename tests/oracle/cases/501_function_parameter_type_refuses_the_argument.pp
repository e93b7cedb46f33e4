# A function written in Puppet is given a string for an Integer.
function double(Integer $x) >> Integer {
  $x * 2
}
node default {
  notify { 'doubled':
    message => String(double('21')),
  }
}
