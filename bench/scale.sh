#!/usr/bin/env bash
# How mplint's time and memory grow with the size of a site: a synthetic
# site 1, 5 and 10 times larger than SRC (bench/gen_site.py), one full check
# each.
#
#   bench/scale.sh [SRC] [-- MPLINT_ARGS...]
#
# SRC defaults to Debian's modules (/usr/share/puppet/modules); a public
# control repository makes the better test. Arguments after `--` go to
# mplint (e.g. `--config /dev/null`, `--jobs 1`). FACTORS overrides the
# sizes ("1 5 10").
set -euo pipefail
cd "$(dirname "$0")/.."
src=/usr/share/puppet/modules
if [[ $# -gt 0 && $1 != -- ]]; then src=$1; shift; fi
[[ ${1:-} == -- ]] && shift
factors=${FACTORS:-1 5 10}

cargo build --release --locked --quiet
mplint=$PWD/target/release/mplint
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| factor | files | MB | wall s | user s | peak RSS MB | findings | time ratio | memory ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
base_time="" base_mem=""
for n in $factors; do
  site=$work/site-$n
  python3 bench/gen_site.py "$src" "$n" "$site"
  files=$(find "$site" -name '*.pp' -type f | wc -l)
  bytes=$(find "$site" -name '*.pp' -type f -print0 | xargs -0 cat | wc -c)
  /usr/bin/time -f '%e %U %M' -o "$work/time" "$mplint" --no-cache "$site" "$@" --format json -o "$work/out.json" || true
  read -r wall user rss < <(tail -1 "$work/time")
  findings=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['findings']))" "$work/out.json")
  base_time=${base_time:-$wall}
  base_mem=${base_mem:-$rss}
  printf '| %s× | %s | %.1f | %s | %s | %d | %s | %.2f | %.2f |\n' "$n" "$files" \
    "$(echo "$bytes / 1048576" | bc -l)" "$wall" "$user" $((rss / 1024)) "$findings" \
    "$(echo "$wall / $base_time" | bc -l)" "$(echo "$rss / $base_mem" | bc -l)"
  rm -rf "$site"
done
