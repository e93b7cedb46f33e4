# A node that binds $osfamily hides the fact from the classes it declares;
# another node's compilation of the same class reads the fact.
# nodes: a.example.com, b.example.com
# checks: legacy-fact, top-scope-fact
# expect: legacy-fact@7
class show {
  notify { 'line 7': message => $osfamily }
}
node 'a.example.com' {
  $osfamily = 'Custom'
  include show
}
node 'b.example.com' {
  $fqdn = 'not.the.fact'
  include show
}
