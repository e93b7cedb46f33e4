node default { include role::db }
