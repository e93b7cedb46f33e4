# Puppet's sshkey is keyed by the host name and the key type: one host's
# RSA and Ed25519 keys are two resources.
node default {
  sshkey { 'web rsa':
    name => 'web.example.com',
    type => 'ssh-rsa',
    key  => 'AAAArsa',
  }
  sshkey { 'web ed25519':
    name => 'web.example.com',
    type => 'ssh-ed25519',
    key  => 'AAAAed',
  }
}
