# sort() gives its lambda two values to compare.
$names = ['b', 'a']
$sorted = $names.sort |$x| { 0 }
notify { "${sorted}": }
