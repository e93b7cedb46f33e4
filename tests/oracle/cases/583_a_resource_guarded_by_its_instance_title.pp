# The file is declared only by the instance titled 'port'. An instance
# whose title comes from a loop declares it only if titled 'port' too,
# and then the two instances are the duplicate, not the file.
define setting($value = undef) {
  if $name == 'port' {
    file { '/tmp/port-override':
      ensure  => file,
      content => "${value}\n",
    }
  }
}
class settings {
  setting { 'port': value => '5432' }
  ['ssl', 'work_mem'].each |$key| {
    setting { $key: value => 'on' }
  }
}
node default {
  include settings
}
