# Titles are compared as written: NGINX is not nginx.
package { 'NGINX': }
service { 'nginx': require => Package['nginx'] }
