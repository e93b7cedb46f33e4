class m {
  $interval = 0x1fz
}
