$type = Notify
@$type { 'a': }
'notify' { 'b': }
($type) { 'c': }
