# A selector with default written first still picks the matching option 'a' => 'y': $v is 'y', not 'x'.
$v = 'a' ? { default => 'x', 'a' => 'y' }
notify { $v: }
notify { 'x': }
