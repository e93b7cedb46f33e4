#!/usr/bin/env bash
# Records what `puppet parser validate` says about every case manifest, next
# to it, so the test suite compares mplint's parser and single-file rules
# with Puppet's without needing Ruby: the first error (status, message,
# line, column) and every error and warning (`diagnostics`).
#
#   tests/parser_oracle/record.sh [CASE.pp ...]      # default: every case
#
# The manifests of `modulepath/modules/` are validated as module files, with
# that directory as Puppet's module path.
#
# Needs Puppet 7 (apt-get install puppet-agent).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v puppet >/dev/null || { echo "no puppet on PATH" >&2; exit 2; }
record() {
  local case=$1
  local out status=0
  local options=(--color=false)
  case $case in */modulepath/modules/*) options+=(--modulepath "$here/modulepath/modules") ;; esac
  out=$(puppet parser validate "${options[@]}" "$case" 2>&1) || status=$?
  # The first error, without the environment prefix and the file name: the
  # message, line and column.
  ruby -rjson -e '
    status = Integer(ARGV[0])
    # Paths relative to this directory, so that verdicts do not depend on the checkout.
    ARGV[1] = ARGV[1].gsub(ENV.fetch("here") + "/", "")
    verdict = { "status" => status, "message" => nil, "line" => nil, "column" => nil }
    if status != 0
      error = ARGV[1][/^Error: .*?(?=^Error: |\z)/m].to_s.sub(/\AError: /, "").strip
      error = error.sub(/\ACould not parse for environment [^:]+: /, "")
      if (m = error.match(/\s*\(file: [^,)]*(?:, line: (\d+), column: (\d+))?\)\z/))
        verdict["line"] = m[1] && m[1].to_i
        verdict["column"] = m[2] && m[2].to_i
        error = m.pre_match
      end
      verdict["message"] = error
    end
    verdict["diagnostics"] = ARGV[1].scan(/^(Error|Warning): (.*?)(?=^(?:Error|Warning|Notice): |\z)/m).filter_map do |level, text|
      text = text.strip.sub(/\ACould not parse for environment [^:]+: /, "")
      next if text.start_with?("Language validation logged")
      m = text.match(/\s*\(file: [^,)]*(?:, line: (\d+), column: (\d+))?\)\z/)
      { "level" => level.downcase, "message" => m ? m.pre_match : text,
        "line" => m && m[1] && m[1].to_i, "column" => m && m[2] && m[2].to_i }
    end
    puts JSON.generate(verdict)
  ' "$status" "$out" > "${case%.pp}.verdict.json"
  echo "${case#"$here"/}"
}
export -f record
export here
if [ $# -gt 0 ]; then
  cases=(); for c in "$@"; do cases+=("$(cd "$(dirname "$c")" && pwd)/$(basename "$c")"); done
else
  cases=("$here"/cases/*.pp); while IFS= read -r c; do cases+=("$c"); done < <(find "$here/modulepath" -name '*.pp' | sort)
fi
printf '%s\n' "${cases[@]}" | xargs -P "$(nproc)" -I{} bash -c 'record "$@"' _ {}
