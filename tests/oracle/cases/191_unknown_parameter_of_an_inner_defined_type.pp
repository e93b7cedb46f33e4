define mymod::inner($path) { }
define mymod::outer($x = 1) {
  mymod::inner { $title: pth => "/srv/${title}" }
}
mymod::outer { 'a': }
