node "a b" {
}
node "a/b", "ok.example.com" {
}
node a-b_c {
}
node 1.2.3 {
}
node /x y/ {
}
node "a:b" {
}
