# A title variable assigned `undef`, used only where `if $url` holds: the
# resource is never evaluated with it, and Puppet compiles.
class web {
  $url = undef
  if $url {
    notify { $url: }
  }
  $enabled = false
  if $enabled {
    notify { $enabled: }
  }
  notify { 'done': }
}
include web
