# A relationship written as a string names a resource too.
package { 'curl': }
exec { 'fetch':
  command => '/usr/bin/curl -o /tmp/x http://example.com/',
  require => ['Package[curl]', 'Package[wget]'],
}
