# nodes: web01.example.com, db01.example.com
# Two instances of a defined type test the same top-scope value (a fact,
# read unqualified): both take the same branch, so the classes of two
# exclusive branches never meet in one catalog.
define app::java {
  if versioncmp("${hostname}", 'web01') == 0 {
    include app::web
  } elsif versioncmp("${hostname}", 'db01') == 0 {
    include app::db
  }
}
class app::web { package { 'libjava': } }
class app::db { package { 'libjava': } }
app::java { 'one': }
app::java { 'two': }
