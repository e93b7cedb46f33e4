# A segment of a qualified name starting with a digit: Puppet's lexer
# stops at that segment.
class rvm {
}
class rvm::1_9_2 inherits rvm {
}
