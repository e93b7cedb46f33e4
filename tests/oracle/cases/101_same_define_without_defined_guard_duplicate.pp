# The same define without the !defined() guard: the second instance redeclares File['/data'].
define site() {
  file { '/data': ensure => directory }
  file { "/data/${title}": }
}
site { 'a': }
site { 'b': }
