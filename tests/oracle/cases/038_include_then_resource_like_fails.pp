class dbserver ($port = 5432) { notify { "db ${port}": } }
node default {
  include dbserver
  class { 'dbserver': port => 5433 }
}
