# $other is the negation of $is_web: the files are never declared together; the users are, on web01.
# nodes: web01.example.com, db01.example.com
$is_web = $hostname == 'web01'
$other = !$is_web
if $other { file { '/x': } }
if $is_web { file { '/x': } }
if $hostname == 'web01' { user { 'u': } }
unless $other { user { 'u': } }
