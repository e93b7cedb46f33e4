# join() takes the array and a separator.
$names = ['a', 'b']
notify { join($names, ', ', 'and'): }
