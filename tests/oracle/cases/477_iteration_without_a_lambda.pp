# each() needs a lambda.
$ports = [80, 443]
$ports.each
