class app(Integer $port = '80', String $owner = undef) {
  notify { "app ${port} ${owner}": }
}
