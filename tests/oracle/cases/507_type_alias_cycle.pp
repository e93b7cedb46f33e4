# Two aliases that stand only for each other: no real type.
type Port = Listen
type Listen = Port
node default {
  notify { 'check':
    message => 80 =~ Port,
  }
}
