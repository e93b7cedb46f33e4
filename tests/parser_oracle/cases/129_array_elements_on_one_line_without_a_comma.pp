# On one line: the comma goes after the first element.
$x = [1, 'a' 'b']
