#!/usr/bin/env bash
# Records Puppet's own verdict for every case manifest, next to it, so the
# test suite compares against real Puppet without needing Ruby.
#
#   tests/oracle/record.sh [CASE.pp ...]      # default: every case
#
# Needs Puppet 7 (apt-get install puppet-agent) and ../shared/oracle.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
oracle=${ORACLE:-$here/../../../shared/oracle/puppet-compile.rb}
[ -f "$oracle" ] || { echo "no oracle at $oracle" >&2; exit 2; }
graph=$here/graph.rb
cd "$here/cases"
record() {
  local case=$1
  local script=$oracle
  # Cases about the agent's relationship graph: compiled, then ordered.
  grep -q '^# graph: cycles' "$case" && script=$graph
  local nodes
  nodes=$(sed -n 's/^# nodes: //p' "$case" | tr -d ' ' | tr ',' ' ')
  [ -n "$nodes" ] || nodes=web01.example.com
  local out="{"
  local first=1
  for node in $nodes; do
    local verdict
    verdict=$(ruby "$script" "$case" "$node" 2>/dev/null | tail -1)
    [ $first -eq 1 ] || out+=","
    out+="\"$node\":$verdict"
    first=0
  done
  echo "$out}" > "${case%.pp}.verdict.json"
  echo "$case"
}
export -f record
export oracle graph
if [ $# -gt 0 ]; then cases=(); for c in "$@"; do cases+=("$(basename "$c")"); done; else cases=(*.pp); fi
printf '%s\n' "${cases[@]}" | xargs -P "$(nproc)" -I{} bash -c 'record "$@"' _ {}
