# A case with default: written first runs the matching 'a': branch, whose notify duplicates the later one.
case 'a' {
  default: { notify { 'x': } }
  'a':     { notify { 'y': } }
}
notify { 'y': }
