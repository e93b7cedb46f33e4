define vhost { }
vhost { 'a': }
vhost { 'a': }
