# unless defined(Package['p']) after package { 'p': }: the guarded second declaration is skipped.
package { 'p': }
unless defined(Package['p']) {
  package { 'p': }
}
