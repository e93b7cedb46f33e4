$text = "two
lines"
notice($text)
