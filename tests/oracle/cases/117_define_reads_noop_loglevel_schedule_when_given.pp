# $noop, $loglevel and $schedule are variables in a define when the instance sets them.
schedule { 'nightly': }
define d() {
  notify { "n ${noop} l ${loglevel} s ${schedule}": }
}
d { 'a': noop => true, loglevel => 'info', schedule => 'nightly' }
