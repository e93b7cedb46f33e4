# Class a is included only on app01 and on app02, by two separate ifs: its file clashes there, never on web01 or db01.
# nodes: web01.example.com, db01.example.com
class a {
  file { '/srv/m': }
}
if $facts['hostname'] == 'app01' { include a }
if $facts['hostname'] == 'app02' { include a }
file { '/srv/m': }
