# A lambda parameter named after a keyword, read through `${in[...]}`:
# Puppet's lexer makes the keyword at the head of an interpolation a variable.
$allow_ingress = [{ 'name' => 'ssh', 'protocol' => 'tcp', 'port' => 22 }]
$allow_ingress.each | Hash $in | {
  notify { $in['name']:
    message => "${in['name']} - Inbound ${in['protocol'].upcase()}-${in['port']}",
  }
}
[{ 'size' => 3 }].each |$default| {
  notify { "default ${default['size']} ${default.size + 1}": }
}
