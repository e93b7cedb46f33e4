class a(*$x) {
}
