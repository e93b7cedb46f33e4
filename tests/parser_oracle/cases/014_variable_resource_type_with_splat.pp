$type = Notify
$attributes = { message => 'y' }
$type { 'x': * => $attributes }
