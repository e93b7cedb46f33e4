# Every option of the case assigns $doit, so the later assignment always reassigns it.
# nodes: web01.example.com, db01.example.com
case $hostname {
  'db01', 'db02': { $doit = 'x' }
  default: { $doit = '' }
}
if $doit == '' { $doit = '/bin/false' }
notify { $doit: }
