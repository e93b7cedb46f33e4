# nodes: web01.example.com, db01.example.com
class profile::db($password) { }
class role::db { include profile::db }
class role::web { }
node /^web/ { include role::web }
node /^db/ { include role::db }
