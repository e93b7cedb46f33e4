node default {
  include tuning
}
