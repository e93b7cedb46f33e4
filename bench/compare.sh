#!/usr/bin/env bash
# Times mplint against puppet-lint and `puppet parser validate` on the same
# manifests in one run, and reports each tool's peak memory.
#
#   bench/compare.sh [DIR] [-- MPLINT_ARGS...]
#
# DIR defaults to Debian's modules (/usr/share/puppet/modules). Arguments
# after `--` go to every mplint run (e.g. `--config site.toml`). Every tool
# is given the same list of files. Needs hyperfine, puppet-lint and puppet
# (Debian: apt-get install hyperfine puppet-lint puppet-agent) and the
# corpus (../shared/corpus/install.sh). RUNS and SLOW_RUNS set how often the
# fast and the slow tools run.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=/usr/share/puppet/modules
if [[ $# -gt 0 && $1 != -- ]]; then dir=$1; shift; fi
[[ ${1:-} == -- ]] && shift
extra=""
if [[ $# -gt 0 ]]; then extra=$(printf ' %q' "$@"); fi
runs=${RUNS:-5}
slow_runs=${SLOW_RUNS:-2}

cargo build --release --locked --quiet
mplint=$PWD/target/release/mplint
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
list=$work/files
find -L "$dir" -name '*.pp' -type f | sort > "$list"
files=$(wc -l < "$list")
bytes=$(xargs -d '\n' cat < "$list" | wc -c)
echo "Corpus: $files files, $bytes bytes under $dir"
echo

xa="xargs -s 1000000 -d '\n' -a $list"
# mplint parses every file (--no-cache), except in the run that reads the
# parses an earlier run kept (its warm-up run fills the cache).
cache="MPLINT_CACHE_DIR=$work/cache"
names=("mplint (default jobs)" "mplint --jobs 1" "mplint --syntax-only" "mplint, cache filled" "puppet parser validate" "puppet-lint")
commands=(
  "$xa $mplint$extra --no-cache --format json > /dev/null"
  "$xa $mplint$extra --no-cache --jobs 1 --format json > /dev/null"
  "$xa $mplint$extra --no-cache --syntax-only --format json > /dev/null"
  "$xa env $cache $mplint$extra --format json > /dev/null"
  "$xa puppet parser validate > /dev/null 2>&1"
  "$xa puppet-lint > /dev/null 2>&1"
)
# puppet and puppet-lint exit non-zero on some valid files (validation
# warnings), mplint on findings: hence --ignore-failure.
hyperfine --warmup 1 --runs "$runs" --ignore-failure --export-json "$work/fast.json" \
  -n "${names[0]}" "${commands[0]}" -n "${names[1]}" "${commands[1]}" -n "${names[2]}" "${commands[2]}" \
  -n "${names[3]}" "${commands[3]}"
hyperfine --runs "$slow_runs" --ignore-failure --export-json "$work/slow.json" \
  -n "${names[4]}" "${commands[4]}" -n "${names[5]}" "${commands[5]}"

for i in "${!names[@]}"; do
  /usr/bin/time -f '%M' -o "$work/rss-$i" bash -c "${commands[$i]}" > /dev/null 2>&1 || true
done

echo
echo "| tool | wall time | ± | × mplint (default jobs) | peak RSS |"
echo "|---|---|---|---|---|"
python3 - "$work" "${names[@]}" <<'PY'
import json, sys
work, names = sys.argv[1], sys.argv[2:]
results = {r["command"]: r for f in ("fast.json", "slow.json") for r in json.load(open(f"{work}/{f}"))["results"]}
base = results[names[0]]["mean"]
for i, name in enumerate(names):
    r = results[name]
    rss = int(open(f"{work}/rss-{i}").read().split()[-1]) // 1024
    print(f"| {name} | {r['mean']:.2f} s | {r['stddev'] or 0:.2f} s | {r['mean'] / base:.1f} | {rss} MB |")
PY
