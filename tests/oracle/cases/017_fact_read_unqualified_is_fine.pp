class base { notify { "family ${osfamily} ${::fqdn} ${facts['hostname']}": } }
node default { include base }
