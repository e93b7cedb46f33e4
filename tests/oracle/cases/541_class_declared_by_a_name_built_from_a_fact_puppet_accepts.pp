# `contain $c`, `$c` built from a fact, declares `m::pkg` before its
# variable is read: mplint cannot name the class, so the read is not
# judged "never declared".
class m::pkg { $file_name = 'agent.deb' }
class m::os::debian { contain m::pkg }
class m::os::redhat { contain m::pkg }
class m::prep {
  $c = downcase("m::os::${facts['os']['family']}")
  contain $c
}
class m::inst { notify { "file ${m::pkg::file_name}": } }
node default {
  include m::prep
  include m::inst
}
