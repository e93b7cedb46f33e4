# $schedule is not set in a define whose instance has no schedule =>: Unknown variable.
define d() {
  notify { "s ${schedule}": }
}
d { 'a': }
