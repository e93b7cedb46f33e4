class inner { notify { "x is ${x}": } }
class outer {
  $x = 'outer'
  include inner
}
node default { include outer }
