file { '/tmp/x': }
node default { file { '/tmp/x': } }
