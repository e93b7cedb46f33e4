# A virtual defined-type instance that no collector or realize brings in
# never runs: its body, which would read `$m::port` before class `m` is
# declared, is not evaluated.
class m($port = 1) { include m::svc }
class m::svc { $p = $m::port }
define m::node() {
  include m::svc
  include m
}
@m::node { 'a': }
