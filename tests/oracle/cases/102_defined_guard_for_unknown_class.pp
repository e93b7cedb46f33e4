# defined('nosuchclass') is false, so the include of a class that does not exist is never evaluated.
if defined('nosuchclass') {
  include nosuchclass
}
notify { 'done': }
