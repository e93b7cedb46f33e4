# Puppet sets the facts as top-scope variables before the site manifest
# runs: assigning `$os` there fails; a node may bind its own `$os`.
$os = 'centos5'
node default {
  notify { "running on ${os}": }
}
