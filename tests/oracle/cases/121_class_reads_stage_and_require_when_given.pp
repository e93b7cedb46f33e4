# A class declared resource-like with stage => and require => sees $stage and $require.
notify { 'x': }
class c {
  notify { "s ${stage} r ${require}": }
}
class { 'c': stage => 'main', require => Notify['x'] }
