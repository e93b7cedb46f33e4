$x = "y"
node "a${x}" {
}
