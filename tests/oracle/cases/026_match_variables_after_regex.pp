$host = 'web01'
if $host =~ /^web(\d+)$/ {
  notify { "number ${1} of ${0}": }
}
