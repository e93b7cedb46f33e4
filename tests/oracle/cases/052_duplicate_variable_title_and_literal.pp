$path = '/tmp/y'
file { $path: }
file { '/tmp/y': }
