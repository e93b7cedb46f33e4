# Puppet 3's `import` fails wherever Puppet 4 and later evaluate it.
import "nodes/*.pp"
node default {
  notify { 'x': }
}
