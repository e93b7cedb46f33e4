# Two resources with one gem name: Puppet refuses the second, whose name
# is already the first one's.
node default {
  interpreter_gem { 'bundler for 3.1':
    name        => 'bundler',
    interpreter => '3.1',
  }
  interpreter_gem { 'bundler for 3.3':
    name        => 'bundler',
    interpreter => '3.3',
  }
}
