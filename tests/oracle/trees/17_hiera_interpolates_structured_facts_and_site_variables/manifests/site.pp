# The site sets `$operatingsystem` at top scope itself: Hiera's
# `%{::operatingsystem}` reads that variable, not the legacy fact.
$operatingsystem = 'custom'

node default {
  include app
}
