# A defined type's body overrides an attribute its own declaration set.
define app::conf() {
  file { "/etc/app/${title}": mode => '0644' }
  File["/etc/app/${title}"] { mode => '0600' }
}
node default {
  app::conf { 'main': }
}
