$family = 'Debian'
$pkg = $family ? { 'Debian' => 'apache2', default => 'httpd' }
package { $pkg: }
