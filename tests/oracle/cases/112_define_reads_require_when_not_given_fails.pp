# A define reading $require fails for an instance declared without require =>: Unknown variable.
notify { 'x': }
define d() {
  notify { "r ${require}": }
}
d { 'a': }
