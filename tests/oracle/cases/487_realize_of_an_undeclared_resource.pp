# realize() of a user nobody declares, virtual or not.
@user { 'alice': ensure => present }
realize(User['alice'], User['bob'])
