#!/usr/bin/env python3
"""Makes a synthetic Puppet site N times larger than a real one.

    bench/gen_site.py SRC N DEST

SRC is an environment (environment.conf, manifests/, module directories) or
a directory of modules. DEST receives N copies of every module, copy k named
`<module>_k` with every reference to a module of SRC renamed the same way, so
that each copy is self-contained; the site manifests' node definitions are copied N times too,
their names prefixed and their references renamed. Copy 1 keeps the
original names. Files other than manifests keep their place (metadata,
Hiera data, facts), so the layout reads as the original does.
"""

import os
import re
import shutil
import sys

MODULE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def module_dirs(src):
    """Directories whose children are modules, relative to src."""
    conf = os.path.join(src, "environment.conf")
    entries = ["site-modules", "site", "modules"]
    if os.path.exists(conf):
        for line in open(conf, encoding="utf-8", errors="replace"):
            key, _, value = line.partition("=")
            if key.strip() == "modulepath":
                entries = [e.strip() for e in value.strip().split(":")]
    found = [e for e in entries if not e.startswith("$") and not os.path.isabs(e) and os.path.isdir(os.path.join(src, e))]
    if not found and not os.path.isdir(os.path.join(src, "manifests")):
        found = ["."]  # a directory of modules
    return found


def renamer(modules, k):
    """A function rewriting the references to `modules` in Puppet code for copy k."""
    if k == 1 or not modules:
        return lambda text: text
    names = "|".join(sorted((re.escape(m) for m in modules), key=len, reverse=True))
    # Qualified names and variables: apache::vhost, $apache::x, ::apache::params, Apache::Vhost[...]
    qualified = re.compile(r"(?<![\w-])(::)?(%s)(?=::)" % names, re.IGNORECASE)
    # A module's main class named alone: class apache, include apache,
    # class { 'apache': }, Class['apache'], inherits apache.
    keyword = re.compile(r"\b(class|include|contain|require|inherits)(\s+)(::)?(%s)\b(?!::)" % names)
    quoted = re.compile(r"(['\"])(::)?(%s)\1" % names)

    def rename(name):
        return f"{name}_{k}"

    def qualified_sub(m):
        lead, name = m.group(1) or "", m.group(2)
        new = rename(name.lower())
        return lead + (new.capitalize() if name[0].isupper() else new)

    def rewrite(text):
        text = qualified.sub(qualified_sub, text)
        text = keyword.sub(lambda m: m.group(1) + m.group(2) + (m.group(3) or "") + rename(m.group(4)), text)
        text = quoted.sub(lambda m: m.group(1) + (m.group(2) or "") + rename(m.group(3)) + m.group(1), text)
        return text

    return rewrite


NODE_NAME = re.compile(r"(\bnode\s+)((?:'[^']*'|\"[^\"]*\"|/(?:\\.|[^/])*/|[\w.-]+)(?:\s*,\s*(?:'[^']*'|\"[^\"]*\"|/(?:\\.|[^/])*/|[\w.-]+))*)")


def rename_nodes(text, k):
    """Prefixes the node names of copy k so that no two copies match one host."""
    if k == 1:
        return text

    def one(name):
        if name == "default":
            return f"'copy{k}-default'"
        if name.startswith("/"):
            body = name[1:-1]
            return f"/^copy{k}-{body[1:]}/" if body.startswith("^") else f"/copy{k}-{body}/"
        if name[0] in "'\"":
            return f"{name[0]}copy{k}-{name[1:]}"
        return f"'copy{k}-{name}'"

    def sub(m):
        names = re.findall(r"'[^']*'|\"[^\"]*\"|/(?:\\.|[^/])*/|[\w.-]+", m.group(2))
        return m.group(1) + ", ".join(one(n) for n in names)

    return NODE_NAME.sub(sub, text)


def node_blocks(text):
    """The node definitions of a manifest, without its other top-level code
    (copied once, it would be assigned or declared twice in every copy)."""
    blocks = []
    for m in re.finditer(r"(?m)^node\b", text):
        header = NODE_NAME.match(text, m.start())
        depth, i, quote = 0, text.find("{", header.end() if header else m.end()), None
        if i < 0:
            continue
        j = i
        while j < len(text):
            c = text[j]
            if quote:
                if c == "\\":
                    j += 1
                elif c == quote:
                    quote = None
            elif c in "'\"":
                quote = c
            elif c == "#":
                j = text.find("\n", j)
                j = len(text) if j < 0 else j
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    blocks.append(text[m.start() : j + 1])
                    break
            j += 1
    return "\n".join(blocks) + "\n"


def copy_tree(src, dest, rewrite, manifest_rewrite=None):
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d not in (".git", "spec")]
        rel = os.path.relpath(root, src)
        out = os.path.join(dest, rel)
        os.makedirs(out, exist_ok=True)
        for f in files:
            source = os.path.join(root, f)
            target = os.path.join(out, f)
            if os.path.islink(source) and not os.path.exists(source):
                continue
            if f.endswith(".pp"):
                text = open(source, encoding="utf-8", errors="replace").read()
                text = rewrite(text)
                if manifest_rewrite:
                    text = manifest_rewrite(text)
                with open(target, "w", encoding="utf-8") as out_file:
                    out_file.write(text)
            elif os.path.isfile(source):
                shutil.copyfile(source, target)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, n, dest = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    dirs = module_dirs(src)
    modules = set()
    for d in dirs:
        for name in os.listdir(os.path.join(src, d)):
            if MODULE_NAME.match(name) and os.path.isdir(os.path.join(src, d, name)):
                modules.add(name)
    for name in os.listdir(src):
        path = os.path.join(src, name)
        if os.path.isfile(path):
            shutil.copyfile(path, os.path.join(dest, name))
    for k in range(1, n + 1):
        rewrite = renamer(modules, k)
        for d in dirs:
            for name in sorted(os.listdir(os.path.join(src, d))):
                path = os.path.join(src, d, name)
                if not os.path.isdir(path):
                    continue
                new = name if k == 1 or name not in modules else f"{name}_{k}"
                copy_tree(path, os.path.join(dest, d, new), rewrite)
        manifests = os.path.join(src, "manifests")
        if os.path.isdir(manifests):
            for f in sorted(os.listdir(manifests)):
                if not f.endswith(".pp"):
                    continue
                text = open(os.path.join(manifests, f), encoding="utf-8", errors="replace").read()
                if k > 1:
                    text = node_blocks(text)
                text = rename_nodes(rewrite(text), k)
                os.makedirs(os.path.join(dest, "manifests"), exist_ok=True)
                stem = f[:-3] if k == 1 else f"{f[:-3]}_copy{k}"
                with open(os.path.join(dest, "manifests", stem + ".pp"), "w", encoding="utf-8") as out_file:
                    out_file.write(text)


if __name__ == "__main__":
    main()
