$b = @("END"/n)
${x}
$y
\nz
END
