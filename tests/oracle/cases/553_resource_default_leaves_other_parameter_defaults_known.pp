# A resource default that sets one attribute of a defined type leaves the
# defaults of its other parameters as written.
define app::site ($ensure = 'present', $server = undef) {
  if $ensure == 'present' {
    package { 'tool': }
  }
}
App::Site { server => 'example' }
app::site { 'one': }
package { 'tool': }
