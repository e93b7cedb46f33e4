# A collector realizes virtual resources; it declares none.
service { 'nginx': require => Package['nginx'] }
Package <| |>
