define foo::vhost(String $docroot, Integer $port) { }
