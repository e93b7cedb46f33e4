# Aliases that refer to themselves inside other types, or reach a real
# type through a Variant: all resolve.
type Tree = Variant[Integer, Array[Tree]]
type Port = Listen
type Listen = Variant[Port, Integer[1, 65535]]
type Config = Hash[String, Variant[String, Config]]
node default {
  notify { 'check':
    message => "${[1, [2, [3]]] =~ Tree} ${80 =~ Port} ${{ 'a' => { 'b' => 'c' } } =~ Config}",
  }
}
