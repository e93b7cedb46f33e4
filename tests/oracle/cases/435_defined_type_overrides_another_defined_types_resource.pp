# A defined type overrides a file another defined type declares, in the
# instance it declares itself.
define app::conf() {
  file { "/etc/app/${title}": mode => '0644' }
}
define app::site() {
  app::conf { $title: }
  File["/etc/app/${title}"] { owner => 'www' }
}
node default {
  app::site { 'www': }
}
