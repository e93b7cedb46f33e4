# Two instances, only the first sets before =>: the second fails with Unknown variable 'before'.
notify { 'x': }
define d() {
  notify { "b ${title} ${before}": }
}
d { 'a': before => Notify['x'] }
d { 'b': }
