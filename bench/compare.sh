#!/usr/bin/env bash
# Times mplint against puppet-lint and `puppet parser validate` on the same
# manifests in one run, and reports each tool's peak memory.
#
#   bench/compare.sh [DIR]      # default: Debian's modules, /usr/share/puppet/modules
#
# Needs hyperfine, puppet-lint and puppet (Debian: apt-get install hyperfine
# puppet-lint puppet-agent) and the corpus (../shared/corpus/install.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-/usr/share/puppet/modules}
runs=${RUNS:-5}
slow_runs=${SLOW_RUNS:-2}

cargo build --release --locked --quiet
mplint=$PWD/target/release/mplint
list=$(mktemp)
trap 'rm -f "$list"' EXIT
find -L "$dir" -name '*.pp' -type f | sort > "$list"
files=$(wc -l < "$list")
bytes=$(xargs -d '\n' cat < "$list" | wc -c)
echo "Corpus: $files files, $bytes bytes under $dir"
echo

# Every tool reports on the same list of files. puppet and puppet-lint exit
# non-zero on some valid files (validation warnings), hence --ignore-failure.
hyperfine --warmup 1 --runs "$runs" --ignore-failure --export-markdown bench/results-fast.md \
  -n "mplint --jobs 1" "xargs -s 1000000 -d '\n' -a $list $mplint --jobs 1 --format json > /dev/null" \
  -n "mplint (default jobs)" "xargs -s 1000000 -d '\n' -a $list $mplint --format json > /dev/null"
hyperfine --runs "$slow_runs" --ignore-failure --export-markdown bench/results-slow.md \
  -n "puppet parser validate" "xargs -s 1000000 -d '\n' -a $list puppet parser validate > /dev/null 2>&1" \
  -n "puppet-lint" "xargs -s 1000000 -d '\n' -a $list puppet-lint > /dev/null 2>&1"

echo
echo "Peak memory (maximum resident set size):"
peak() {
  local name=$1; shift
  local out
  out=$(mktemp)
  /usr/bin/time -f '%M' -o "$out" "$@" > /dev/null 2>&1 || true
  printf '  %-24s %8s MB\n' "$name" "$(( $(tail -1 "$out") / 1024 ))"
  rm -f "$out"
}
peak "mplint --jobs 1" xargs -s 1000000 -d '\n' -a "$list" "$mplint" --jobs 1 --format json
peak "mplint (default jobs)" xargs -s 1000000 -d '\n' -a "$list" "$mplint" --format json
peak "puppet parser validate" xargs -s 1000000 -d '\n' -a "$list" puppet parser validate
peak "puppet-lint" xargs -s 1000000 -d '\n' -a "$list" puppet-lint
