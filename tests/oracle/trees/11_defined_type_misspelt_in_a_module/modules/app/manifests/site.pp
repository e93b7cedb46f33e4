# The module's defined type is app::site; a profile names app::sitee.
define app::site($port = 80) {
  notify { "site ${title} on ${port}": }
}
