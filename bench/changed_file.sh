#!/usr/bin/env bash
# What a pre-commit hook costs: mplint named one file of a large tree,
# which has just changed, after a run that filled the cache.
#
#   bench/changed_file.sh DIR FILE...
#
# For each FILE (relative to DIR), every timed run first appends a comment
# to it, so that each run sees a text it has not seen before; the file is
# restored at the end. Also times the same runs without the cache
# (`--no-cache`) and a run of the whole tree with the cache filled. Needs
# hyperfine. RUNS sets how often each runs.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 2 ]] || { echo "usage: $0 DIR FILE..." >&2; exit 2; }
dir=$(cd "$1" && pwd)
shift
runs=${RUNS:-10}

cargo build --release --locked --quiet
mplint=$PWD/target/release/mplint
work=$(mktemp -d)
declare -a files=("$@")
restore() {
  for file in "${files[@]}"; do
    [[ -f "$work/saved/$file" ]] && cp "$work/saved/$file" "$dir/$file"
  done
  rm -rf "$work"
}
trap restore EXIT
for file in "${files[@]}"; do
  mkdir -p "$(dirname "$work/saved/$file")"
  cp "$dir/$file" "$work/saved/$file"
done

cache="MPLINT_CACHE_DIR=$work/cache"
cd "$dir"
env "$cache" "$mplint" --format json . > /dev/null 2>&1 || true
# hyperfine wants a preparation for every command or for none.
args=(--runs "$runs" --ignore-failure -n "whole tree, cache filled" --prepare true "env $cache $mplint --format json . > /dev/null")
for file in "${files[@]}"; do
  edit="echo '# edited' >> $(printf %q "$file")"
  args+=(-n "$file, just changed" --prepare "$edit" "env $cache $mplint --format json $(printf %q "$file") > /dev/null")
  args+=(-n "$file, --no-cache" --prepare true "$mplint --no-cache --format json $(printf %q "$file") > /dev/null")
done
hyperfine "${args[@]}"
