class foo::bar {
}
