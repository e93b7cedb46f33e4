# A case with default: written first still runs the matching 'a': branch.
case 'a' {
  default: { notify { 'x': } }
  'a':     { notify { 'y': } }
}
notify { 'x': }
