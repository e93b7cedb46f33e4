class c {
  'stray title':
  file { '/tmp/two': ensure => present }
}
