$packages = ['vim']
package { $pakages: }
