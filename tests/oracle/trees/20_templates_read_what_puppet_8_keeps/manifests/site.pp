# Reads that look like legacy facts but find the class's variables, the
# template's parameters or the facts hash: no legacy fact.
node default {
  include ntp
}
