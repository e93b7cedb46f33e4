$text = @(END)
  first line
  | END
notice($text)
