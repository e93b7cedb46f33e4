unless $facts['kernel'] == 'Linux' {
  notice('other')
} elsif $facts['kernel'] == 'windows' {
  notice('windows')
}
