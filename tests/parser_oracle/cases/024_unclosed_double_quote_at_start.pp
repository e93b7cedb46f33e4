"unclosed
