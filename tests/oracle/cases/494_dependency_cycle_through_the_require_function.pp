# graph: cycles
# `require base` puts Class[base] before class web; a resource of base
# wants class web first.
class base {
  notify { 'base':
    require => Class['web'],
  }
}
class web {
  require base
}
node default {
  include web
}
