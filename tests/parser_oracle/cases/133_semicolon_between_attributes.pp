file { '/x': ensure => present; owner => 'root', group => 'root' }
