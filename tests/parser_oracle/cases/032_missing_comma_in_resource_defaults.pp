File {
  owner => 'root'
  group => 'root',
}
