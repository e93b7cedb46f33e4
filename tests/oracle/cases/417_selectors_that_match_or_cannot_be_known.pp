# Each selector here matches, has a default, or tests a value mplint
# cannot know.
$upper = 'PROD' ? { 'prod' => 'a', 'test' => 'b' }
$pattern = 'web01' ? { /^db/ => 'c', /^web/ => 'd' }
$typed = 5 ? { String => 'e', Integer => 'f' }
$listed = 'x' ? { *['w', 'x'] => 'g', 'y' => 'h' }
$fallback = 'z' ? { 'a' => 'i', default => 'j' }
$fact = $facts['os']['family'] ? { 'RedHat' => 'k', 'Debian' => 'l' }
notify { "${upper} ${pattern} ${typed} ${listed} ${fallback} ${fact}": }
