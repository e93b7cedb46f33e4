# An Integer is not a Float.
define app::weight(Float $value) {
  notify { "weight ${title} ${value}": }
}
app::weight { 'w': value => 1 }
