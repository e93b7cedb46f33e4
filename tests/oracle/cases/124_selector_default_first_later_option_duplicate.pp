# A selector with default written first picks 'a' => 'y', so notify { $v: } duplicates notify { 'y': }.
$v = 'a' ? { default => 'x', 'a' => 'y' }
notify { $v: }
notify { 'y': }
