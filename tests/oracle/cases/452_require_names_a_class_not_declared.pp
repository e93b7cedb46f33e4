# A class exists but no code declares it: requiring it fails.
class ntp { }
service { 'ntpd': require => Class['ntp'] }
