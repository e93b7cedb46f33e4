# A define inside a class is named after the class: `sysd::string` is no
# data type's name, though `string` alone is.
class sysd {
  define string($x = 1) {
    notify { "unit ${title}": }
  }
}
include sysd
sysd::string { 'a': }
