# defined() is evaluation-order dependent: the guard runs before the unguarded declaration, so both declare Package['p'].
# expect: possible-duplicate-resource@6
unless defined(Package['p']) {
  package { 'p': }
}
package { 'p': }
