node default {
  include ssh
  include hardening
}
