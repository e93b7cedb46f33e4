case $facts["x"] {
  "a": { notice(1) }
  default: { notice(2) }
  "b", default: { notice(3) }
}
