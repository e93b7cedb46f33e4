# next() in top-level code.
$mode = 'skip'
if $mode == 'skip' {
  next()
}
