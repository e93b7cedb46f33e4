class profile::db(String $password, Integer $port) { }
