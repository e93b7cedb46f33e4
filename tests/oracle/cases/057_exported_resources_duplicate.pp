@@sshkey { 'host': type => 'ssh-rsa', key => 'AAAA' }
@@sshkey { 'host': type => 'ssh-rsa', key => 'AAAA' }
