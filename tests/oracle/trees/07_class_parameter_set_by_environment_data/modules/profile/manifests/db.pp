class profile::db(String $password, Integer $port = 5432) { }
