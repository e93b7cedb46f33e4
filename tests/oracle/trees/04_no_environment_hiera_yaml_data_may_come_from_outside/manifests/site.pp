# Puppet fails here only because the global Hiera layer of the oracle has
# no data: without an environment hiera.yaml a site's data usually comes
# from the global layer, which mplint cannot see, so it says nothing.
# expect: none
node default { include foo }
