# != 'RedHat' and != 'Suse' both hold on Debian: both declare package p.
# expect: possible-duplicate-resource@7
if $osfamily != 'RedHat' {
  package { 'p': }
}
if $facts['os']['family'] != 'Suse' {
  package { 'p': }
}
