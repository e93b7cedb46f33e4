define d(String *$x) {
}
