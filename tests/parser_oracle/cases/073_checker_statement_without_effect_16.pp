class a { if $facts["a"] {} }
class b { if $facts["a"] {} else {} }
class c { case $facts["a"] { default: {} } }
class d {
  notice(1)
  if $facts["x"] { }
}
class e { $facts["x"] ? { default => notice(1) } }
