class dbserver ($port = 5432) { notify { "db ${port}": } }
node default {
  class { 'dbserver': port => 5433 }
  include dbserver
}
