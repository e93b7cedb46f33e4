# defined('x') asks whether class x exists, not whether it is declared: true, so the notify duplicates.
class x { }
if defined('x') {
  notify { 'dup': }
}
notify { 'dup': }
