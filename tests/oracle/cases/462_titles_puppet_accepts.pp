# Titles that look close to refused ones but are strings, or no titles.
$port = 8080
notify { "${port}": }
notify { ['80', 'eighty']: }
notify { []: }
notify { default: message => 'all'; 'with default': }
notify { 'a': ; 'b': }
