define vhost { file { '/etc/nginx/conf.d': ensure => directory } }
vhost { 'a': }
vhost { 'b': }
