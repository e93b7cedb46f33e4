# A define declared twice guards its shared directory with !defined(): only the first instance declares it.
define site() {
  if !defined(File['/data']) {
    file { '/data': ensure => directory }
  }
  file { "/data/${title}": }
}
site { 'a': }
site { 'b': }
