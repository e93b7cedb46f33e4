# One title twice in one array of titles.
user { ['alice', 'bob', 'alice']: ensure => present }
