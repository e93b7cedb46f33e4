# A known argument that no signature of one of Puppet's functions takes.
node default {
  $words = ['a', 'b', ['c']]
  $upper = $words.capitalize
}
