class dbserver ($port = 5432) { }
node default {
  class { 'dbserver': port => 1 }
  class { 'dbserver': port => 2 }
}
