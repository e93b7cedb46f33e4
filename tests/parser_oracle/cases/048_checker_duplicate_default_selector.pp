$x = $facts["y"] ? {
  default => 1,
  "a" => 2,
  default => 3,
}
notice($x)
