file { 'config': path => '/tmp/z' }
file { '/tmp/z': }
