# A chain beside a collector relates what the collector gathers: where it
# gathers nothing, the other operand is never looked up, and Puppet does
# not fail on a resource no code declares.
package { 'tcpdump': }
Package <| tag == 'nomatch' |> -> Exec['update-facts']
Service <| |> ~> Exec['restart-all']
Exec['prepare'] -> User <| groups == 'nomatch' |>
