# foo::x has no default, but the module's data sets it.
node default { include foo }
