# One instance of `vf` is declared in either branch of an `if`; each
# includes `l1` or `l2` by its `$run_mode`, never both: the classes run
# under one declaration's path, not under what the two paths share.
class l1 { file { '/x': ensure => absent } }
class l2 { file { '/x': ensure => absent } }
define vf ($run_mode = 'normal') {
  case $run_mode {
    'itk': { include l1 }
    'proxy-itk': { include l2 }
    default: {}
  }
}
define v ($mode = 'template', $run_mode = 'normal') {
  if $mode == 'file' {
    vf { $name: run_mode => $run_mode }
  } else {
    vf { $name: run_mode => $run_mode }
  }
}
v { 'a': mode => $facts['v_mode'], run_mode => $facts['v_run_mode'] }
