# A number runs to a word boundary: `7d` is one illegal number, not 7 and a
# name (a duration written the way another tool takes it).
class m {
  notify { "a": message => 7d }
}
