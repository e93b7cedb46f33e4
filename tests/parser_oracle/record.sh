#!/usr/bin/env bash
# Records what `puppet parser validate` says about every case manifest, next
# to it, so the test suite compares mplint's parser and single-file rules
# with Puppet's without needing Ruby: the first error (status, message,
# line, column) and every error and warning (`diagnostics`).
#
#   tests/parser_oracle/record.sh [CASE.pp ...]      # default: every case
#
# Needs Puppet 7 (apt-get install puppet-agent).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
command -v puppet >/dev/null || { echo "no puppet on PATH" >&2; exit 2; }
cd "$here/cases"
record() {
  local case=$1
  local out status=0
  out=$(puppet parser validate --color=false "$case" 2>&1) || status=$?
  # The first error, without the environment prefix and the file name: the
  # message, line and column.
  ruby -rjson -e '
    status = Integer(ARGV[0])
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
  echo "$case"
}
export -f record
if [ $# -gt 0 ]; then cases=(); for c in "$@"; do cases+=("$(basename "$c")"); done; else cases=(*.pp); fi
printf '%s\n' "${cases[@]}" | xargs -P "$(nproc)" -I{} bash -c 'record "$@"' _ {}
