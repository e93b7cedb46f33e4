$name = 'world'
$greeting = "hello ${name}
notice($greeting)
