class web { package { 'nginx': } }
class proxy { package { 'nginx': } }
node default {
  include web
  include proxy
}
