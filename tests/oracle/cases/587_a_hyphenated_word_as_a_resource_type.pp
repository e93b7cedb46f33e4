# A word with `-` is a string to Puppet, not a type name, even with `::`.
node default {
  ruby-enterprise::gem { 'trocla': }
}
