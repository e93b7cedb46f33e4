# A class included without require => reading $require: Unknown variable.
class c {
  notify { "r ${require}": }
}
include c
