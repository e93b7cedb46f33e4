# if and unless on the same test are exclusive: httpd is declared once.
if $facts['os']['family'] == 'Debian' {
  package { 'httpd': }
}
unless $facts['os']['family'] == 'Debian' {
  package { 'httpd': }
}
