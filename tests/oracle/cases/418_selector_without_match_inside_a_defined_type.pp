# The value comes from the title of an instance; only one instance has a
# value no case matches.
define app::port {
  $port = $title ? {
    'http'  => 80,
    'https' => 443,
  }
  notify { "port ${port}": }
}
app::port { 'http': }
app::port { 'gopher': }
