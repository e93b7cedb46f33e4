# A defined type written inside a class takes the class's name as a
# prefix: this one is `bs::jenkins::bs::link`, and `bs::link` is unknown.
class bs::jenkins {
  define bs::link($to) {
    notify { $to: }
  }
  bs::link { 'ant': to => '/opt/ant' }
}
node default {
  include bs::jenkins
}
