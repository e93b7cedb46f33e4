# A keyword at the head of an interpolation is a variable when alone or
# followed by `.` or `[`.
$allow_ingress.each | Hash $in | {
  notify { $in['name']:
    message => "${in['name']} - Inbound ${in['protocol'].upcase()}-${in['port']}",
  }
}
$s = "${if} ${case.size + 1} ${ unless .size } ${class['a'] ? { 'x' => 1, default => 2 }} ${default} ${undef['a']}"
$h = @("END")
${node['a']} ${type.length} ${and}
END
