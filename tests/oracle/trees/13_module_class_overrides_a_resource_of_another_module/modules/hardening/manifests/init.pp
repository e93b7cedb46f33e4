class hardening {
  include hardening::ssh
}
