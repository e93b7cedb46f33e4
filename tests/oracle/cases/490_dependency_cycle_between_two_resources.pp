# graph: cycles
# A metaparameter and an arrow order two resources both ways.
node default {
  notify { 'a': }
  notify { 'b':
    before => Notify['a'],
  }
  Notify['a'] -> Notify['b']
}
