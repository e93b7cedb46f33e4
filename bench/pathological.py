#!/usr/bin/env python3
"""Times mplint on pathological inputs at sizes N, 2N and 4N.

    bench/pathological.py [MPLINT] [--scale K] [--only NAME]

Each shape is one file that once made mplint abort or run for seconds to
minutes: a heredoc with an unknown flag, a big hash literal, a long line of
`$x$x…`, a long run of strings after a parameter default, nested `"${["`
openers, a long invalid `$x = 'x','x',…` line. Every size is checked with a
fresh process (`/usr/bin/time`): wall and user CPU time, peak memory, and the first
finding, as a Markdown table. The memory bound is what a one-line file
takes plus mplint's documented bound for the file (64 MB + 2,048 bytes per
byte: `MEMORY_BASE_KB`, `MEMORY_PER_BYTE` in src/lib.rs). MPLINT defaults to target/release/mplint;
`--scale` multiplies every N.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def heredoc_flag(n):
    # The 11-byte original, repeated: an unknown flag then a body line.
    return '@("E":n)\n$x\n' * n


def big_hash(n):
    pairs = ",\n".join(f"    'key{i}' => 'value{i}'" for i in range(n))
    return f"class big {{\n  $h = {{\n{pairs}\n  }}\n  notice($h)\n}}\n"


def dollar_run(n):
    return "$x" * n + "\n"


def default_then_strings(n):
    return "class c ($p = 'd' " + "'x'," * n + ") {}\n"


def nested_openers(n):
    return '"${[' * n + "\n"


def invalid_list(n):
    return "$x = " + "'x'," * n + "'x'\n"


# name, generator, N (the sizes are at 1N to 4N), what it was before.
SHAPES = [
    ("heredoc-unknown-flag", heredoc_flag, 1, "SIGABRT after allocating ~5 GB (11 bytes)"),
    ("big-hash", big_hash, 20_000, "10,000 pairs: seconds; 80,000 pairs: > 60 s"),
    ("dollar-run", dollar_run, 10_000, "40,000 × `$x` (80 KB): 2.9 s"),
    ("default-then-strings", default_then_strings, 12_500, "200 KB: 24 s"),
    ("nested-interpolation-openers", nested_openers, 1_000, "16 KB: 3.2 s"),
    ("invalid-list-line", invalid_list, 6_250, "100 KB: ≈ 1 s"),
]


def run(mplint, path):
    with tempfile.NamedTemporaryFile("r") as timing, tempfile.NamedTemporaryFile("r") as report:
        proc = subprocess.run(
            ["/usr/bin/time", "-f", "%e %U %M", "-o", timing.name, mplint, "--format", "json", "-o", report.name, path],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wall, user, rss = timing.read().split()[-3:]
        finding = ""
        try:
            findings = json.load(open(report.name))["findings"]
            if findings:
                f = findings[0]
                finding = f"{f['rule']} {f['start']['line']}:{f['start']['column']}"
            else:
                finding = "none"
        except (ValueError, KeyError):
            finding = f"exit {proc.returncode}: {proc.stderr.decode(errors='replace').strip()[:60]}"
        return float(wall), float(user), int(rss) // 1024, finding


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mplint", nargs="?", default="target/release/mplint")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only")
    args = parser.parse_args()
    print("| shape | N | bytes | wall s | user s | peak RSS MB | bound MB | first finding | before |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        tiny = os.path.join(work, "tiny.pp")
        with open(tiny, "w") as f:
            f.write("notice(1)\n")
        baseline = run(args.mplint, tiny)[2]
        for name, generate, n, before in SHAPES:
            if args.only and args.only != name:
                continue
            for factor in (1, 2, 4):
                size = max(1, int(n * args.scale)) * factor
                path = os.path.join(work, f"{name}-{size}.pp")
                with open(path, "w") as f:
                    f.write(generate(size))
                wall, user, rss, finding = run(args.mplint, path)
                shown = before if factor == 1 else ""
                size_bytes = os.path.getsize(path)
                bound = baseline + 64 + size_bytes * 2048 // (1024 * 1024)
                verdict = "" if rss <= bound else " (over)"
                print(f"| {name} | {size} | {size_bytes} | {wall:.2f} | {user:.2f} | {rss}{verdict} | {bound} | {finding} | {shown} |")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
