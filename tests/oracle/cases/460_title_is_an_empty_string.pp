# An empty title.
package { '': ensure => installed }
