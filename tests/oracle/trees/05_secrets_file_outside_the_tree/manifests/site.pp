# The secrets file the hierarchy names is not in the tree: it may set foo::x.
# expect: none
node default { include foo }
