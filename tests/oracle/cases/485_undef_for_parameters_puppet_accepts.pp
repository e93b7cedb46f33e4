# undef for an Optional parameter, or one with a default.
define app::site(Optional[Integer] $port, String $docroot = '/srv') {
  notify { "${title} ${docroot}": }
}
app::site { 'web': port => undef, docroot => undef }
