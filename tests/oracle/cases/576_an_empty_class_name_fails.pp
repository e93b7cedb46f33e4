# An empty string is true since Puppet 4: the branch runs, and Puppet
# refuses the empty class name it declares.
class ap($my_class = '') {
  if $my_class {
    contain "${my_class}"
  }
}
include ap
