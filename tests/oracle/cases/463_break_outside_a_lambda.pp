# break() in a class body, outside any lambda.
class cleanup {
  notify { 'start': }
  break()
}
include cleanup
