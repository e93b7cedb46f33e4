#!/usr/bin/env python3
"""How mplint's time and memory grow with valid code of one shape.

    bench/scaling.py [MPLINT] [--scale K] [--only NAME]

For each shape (long lines, many statements, big hashes and arrays, deep
nesting, many classes, long include and inheritance chains, many nodes) a
tree of valid Puppet is generated at sizes N, 2N and 4N and checked once
with `/usr/bin/time`: wall and user CPU time, peak memory, and the ratios
of user time and memory to those at size N (linear growth: 2 and 4; user
time, as wall time varies with the load of the machine). MPLINT defaults to target/release/mplint;
`--scale` multiplies every N. Prints a Markdown table.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


def long_line(root, n):
    # Arguments, not `1 + 2 + …`: a chain of n operators nests n levels deep
    # and beyond 25,000 levels is reported, not analysed.
    write(root, "manifests/site.pp", "notice(" + ", ".join(f"'a{i}'" for i in range(n)) + ")\n")


def many_statements(root, n):
    body = "".join(f"  file {{ '/tmp/f{i}': ensure => file, mode => '0644' }}\n" for i in range(n))
    write(root, "modules/m/manifests/init.pp", f"class m {{\n{body}}}\n")
    write(root, "manifests/site.pp", "node default { include m }\n")


def big_hash(root, n):
    pairs = ",\n".join(f"    'key{i}' => {{ 'v' => {i} }}" for i in range(n))
    write(root, "modules/m/manifests/init.pp", f"class m {{\n  $h = {{\n{pairs}\n  }}\n  notice($h['key1'])\n}}\n")
    write(root, "manifests/site.pp", "node default { include m }\n")


def big_array(root, n):
    items = ",\n".join(f"    'item{i}'" for i in range(n))
    write(root, "modules/m/manifests/init.pp", f"class m {{\n  $a = [\n{items}\n  ]\n  notice($a[1])\n}}\n")
    write(root, "manifests/site.pp", "node default { include m }\n")


def deep_nesting(root, n):
    opens = "".join(f"{'  ' * (i % 8)}if $facts['f{i % 7}'] {{\n" for i in range(n))
    write(root, "manifests/site.pp", f"{opens}notice('deep')\n{'}' * n}\n")


def many_classes(root, n):
    for i in range(n):
        write(root, f"modules/m/manifests/c{i}.pp", f"class m::c{i} {{\n  file {{ '/tmp/c{i}': ensure => file }}\n}}\n")
    includes = "".join(f"  include m::c{i}\n" for i in range(n))
    write(root, "modules/m/manifests/init.pp", f"class m {{\n{includes}}}\n")
    write(root, "manifests/site.pp", "node default { include m }\n")


def include_chain(root, n):
    for i in range(n):
        nxt = f"  include m::c{i + 1}\n" if i + 1 < n else ""
        write(root, f"modules/m/manifests/c{i}.pp", f"class m::c{i} {{\n  $v{i} = {i}\n{nxt}}}\n")
    write(root, "manifests/site.pp", "node default { include m::c0 }\n")


def inheritance_chain(root, n):
    for i in range(n):
        parent = f" inherits m::c{i - 1}" if i > 0 else ""
        write(root, f"modules/m/manifests/c{i}.pp", f"class m::c{i}{parent} {{\n  $v{i} = {i}\n}}\n")
    write(root, "manifests/site.pp", f"node default {{ include m::c{n - 1} }}\n")


def many_nodes(root, n):
    write(root, "modules/m/manifests/init.pp", "class m ($port = 80) {\n  file { '/tmp/m': content => \"${port}\" }\n}\n")
    write(root, "modules/r/manifests/init.pp", "class r {\n  notice($::role)\n}\n")
    nodes = "".join(f"node 'n{i}.example.com' {{\n  $role = 'r{i}'\n  class {{ 'm': port => {i} }}\n  include r\n}}\n" for i in range(n))
    write(root, "manifests/site.pp", nodes)


SHAPES = [
    ("long line (`notice('a0', 'a1', …)`)", long_line, 20_000),
    ("many statements (resources in a class)", many_statements, 5_000),
    ("big hash (nested values)", big_hash, 20_000),
    ("big array", big_array, 40_000),
    ("deep nesting (`if` blocks)", deep_nesting, 2_000),
    ("many classes (one file each)", many_classes, 1_000),
    ("include chain", include_chain, 500),
    ("inheritance chain", inheritance_chain, 500),
    ("many nodes", many_nodes, 500),
]


def run(mplint, root):
    with tempfile.NamedTemporaryFile("r") as timing, tempfile.NamedTemporaryFile("r") as report:
        proc = subprocess.run(
            ["/usr/bin/time", "-f", "%e %U %M", "-o", timing.name, mplint, "--format", "json", "-o", report.name, root],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wall, user, rss = timing.read().split()[-3:]
        try:
            summary = json.load(open(report.name))["summary"]
            result = f"{summary['errors']}E {summary['warnings']}W {summary['notes']}N"
        except (ValueError, KeyError):
            result = f"exit {proc.returncode}"
        return float(wall), float(user), int(rss) // 1024, result


def tree_bytes(root):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(root) for f in fs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mplint", nargs="?", default="target/release/mplint")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only")
    args = parser.parse_args()
    print("| shape | N | KB | wall s | user s | peak RSS MB | user time ratio | memory ratio | findings |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, generate, n in SHAPES:
        if args.only and args.only not in name:
            continue
        base = None
        for factor in (1, 2, 4):
            size = max(1, int(n * args.scale)) * factor
            with tempfile.TemporaryDirectory() as root:
                generate(root, size)
                kb = tree_bytes(root) // 1024
                wall, user, rss, result = run(args.mplint, root)
            base = base or (user, rss)
            print(f"| {name} | {size} | {kb} | {wall:.2f} | {user:.2f} | {rss} | {user / max(base[0], 0.01):.2f} | {rss / base[1]:.2f} | {result} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
