package { 'requests': ensure => installed }
package { 'python-requests': name => 'requests', provider => 'pip' }
