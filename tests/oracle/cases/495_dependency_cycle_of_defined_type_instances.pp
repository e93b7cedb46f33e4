# graph: cycles
define site($peer) {
  notify { "site ${title}": }
}
node default {
  site { 'one':
    peer    => 'two',
    require => Site['two'],
  }
  site { 'two':
    peer    => 'one',
    require => Site['one'],
  }
}
