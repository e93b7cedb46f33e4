# A web server: the base profile plus nginx.
class role::web {
  include profile::base
  include profile::nginx
}
