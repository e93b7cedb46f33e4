class role::db { include profile::db }
