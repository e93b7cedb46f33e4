#!/usr/bin/env bash
# Records Puppet's own verdict for every tree case: `trees/NAME/` is an
# environment, compiled whole by compile-environment.rb (its site manifest,
# modules and Hiera layers; no global Hiera data) for web01.example.com.
# Paths in messages are made relative to the tree.
#
#   tests/oracle/record-trees.sh [trees/NAME ...]      # default: every tree
#
# Needs Puppet 7 (apt-get install puppet-agent).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
oracle=$here/compile-environment.rb
if [ $# -gt 0 ]; then trees=("$@"); else trees=("$here"/trees/*/); fi
for tree in "${trees[@]}"; do
  tree=$(cd "$tree" && pwd)
  verdict=$(ruby "$oracle" "$tree" web01.example.com 2>/dev/null | tail -1)
  verdict=${verdict//"$tree/"/}
  echo "{\"web01.example.com\":$verdict}" > "$tree/verdict.json"
  echo "$tree"
done
