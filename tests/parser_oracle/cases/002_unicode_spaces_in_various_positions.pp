# Em space, ideographic space, narrow and plain no-break spaces, thin space.
class demo　(
  String $greeting = 'hi',
) {
　　$words = [$greeting, 'there']
　　notice($words.join(' ')) # the space in the string stays text
}
include demo
