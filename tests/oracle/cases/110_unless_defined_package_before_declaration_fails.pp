# defined() is evaluation-order dependent: the guard runs before the unguarded declaration, so both declare Package['p'].
unless defined(Package['p']) {
  package { 'p': }
}
package { 'p': }
