# No option matches 'b', so the default written first is taken: $v is 'x' and duplicates notify { 'x': }.
$v = 'b' ? { default => 'x', 'a' => 'y' }
notify { $v: }
notify { 'x': }
