# An array of titles holding undef.
file { ['/tmp/a', undef]: ensure => file }
