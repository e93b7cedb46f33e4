# Two resources with one gem name, for two interpreters: two resources,
# as the type is keyed by both namevars.
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
