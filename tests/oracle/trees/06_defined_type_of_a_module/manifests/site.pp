node default {
  foo::vhost { 'www':
    docroot => '/srv/www',
    prot    => 80,
  }
}
