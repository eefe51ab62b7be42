#!/usr/bin/env python3
"""Dependency check: no file of the library, the CLI or the lab may sit in a
circle of dependencies, except the circles listed in KNOWN below.

The graph (nodes are the .c and .h files under src/, cli/ and lab/):
  - A -> B when A has `#include "B"` (resolved against A's folder, src/,
    include/ and cli/);
  - A -> B when the .c file A names a function or a file-scope object with external
    linkage that B alone defines (B a .c file).  Definitions are found at
    brace depth 0 after comments, strings and preprocessor lines are removed:
    `name ( ... ) {` and `name ... = ...;`, not `static`, `extern` or
    `typedef`.  A name defined in two files (each `main`, say) is not an
    edge: the files are parts of different programs.  Uses are every
    identifier of the file, the bodies of its `#define`s included.

A circle is a strongly connected component of more than one file.  The test
fails when a component is not exactly one KNOWN entry (a new circle, or a
known one that grew) and when a KNOWN entry no longer matches (it was
broken or shrank: take it off the list).

Usage: deps_check.py [ROOT] [--print]   (--print lists every edge of every
circle with the names that tie it).
"""

import os
import re
import sys

# Known circles: none.  An entry (the exact set of files of one circle, and
# how it is to be broken) lets a circle stand while it is being broken; any
# other circle fails the test.
KNOWN = []

DIRS = ("src", "cli", "lab")
BASE_INCLUDE_DIRS = ("include", "cli")

TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|\S")
IDENT = re.compile(r"[A-Za-z_]\w*$")


def strip(text):
    """Comments, strings and char literals out; preprocessor lines apart.
    Returns (code without preprocessor lines, includes, define bodies);
    an object-like macro whose body says `static` (FM_INLINE) is replaced
    by `static` in the code."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j) or " ")
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            seg = text[i:j + 1]
            if c == '"' and re.search(r'#\s*include\s*$',
                                      text[text.rfind("\n", 0, i) + 1:i]):
                out.append(seg)  # keep the name of an #include "..."
            else:
                out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    code = "".join(out).replace("\\\n", " ")
    includes, defines, lines, statics = [], [], [], set()
    for line in code.split("\n"):
        s = line.strip()
        if s.startswith("#"):
            m = re.match(r'#\s*include\s*"([^"]+)"', s)
            if m:
                includes.append(m.group(1))
            m = re.match(r"#\s*define\s+(\w+)(\([^)]*\))?(.*)", s)
            if m:
                defines.append(m.group(3))
                if not m.group(2) and re.search(r"\bstatic\b", m.group(3)):
                    statics.add(m.group(1))  # FM_INLINE: static inline
            lines.append("")
        else:
            lines.append(line)
    # a macro that says `static` is the qualifier it expands to
    code = "\n".join(lines)
    if statics:
        code = re.sub(r"\b(%s)\b" % "|".join(sorted(statics)), "static",
                      code)
    return code, includes, defines


def definitions(code):
    """Names with external linkage that the code defines at depth 0."""
    toks = TOKEN.findall(code)
    names, stmt, depth, i = set(), [], 0, 0
    while i < len(toks):
        t = toks[i]
        if depth == 0:
            if t == "{":
                quals = {"static", "extern", "typedef"} & set(stmt)
                # a function body: `name ( ... ) {`
                if stmt and stmt[-1] == ")" and not quals:
                    d, k = 0, len(stmt) - 1
                    while k >= 0:
                        d += stmt[k] == ")"
                        d -= stmt[k] == "("
                        if d == 0:
                            break
                        k -= 1
                    if k > 0 and IDENT.match(stmt[k - 1]):
                        names.add(stmt[k - 1])
                    stmt = []
                elif "=" in stmt and not quals:
                    names.add(declarator(stmt[:stmt.index("=")]))
                depth = 1
            elif t == ";":
                if "=" in stmt and not {"static", "extern", "typedef"} & \
                        set(stmt):
                    names.add(declarator(stmt[:stmt.index("=")]))
                stmt = []
            elif t == "}":
                stmt = []
            else:
                stmt.append(t)
        else:
            if t == "{":
                depth += 1
            elif t == "}":
                depth -= 1
                if depth == 0 and "=" not in stmt:
                    stmt = []  # end of a function body or a struct
        i += 1
    names.discard(None)
    return names


def declarator(toks):
    """The declared name of `type name[...]` (tokens before the `=`)."""
    while toks and toks[-1] == "]":
        toks = toks[:toks.index("[")] if "[" in toks else []
    return toks[-1] if toks and IDENT.match(toks[-1]) else None


def scan(root):
    files = {}
    for d in DIRS:
        for dirpath, _, names in os.walk(os.path.join(root, d)):
            for name in names:
                if name.endswith((".c", ".h")):
                    path = os.path.join(dirpath, name)
                    files[os.path.relpath(path, root)] = path
    info = {}
    for rel, path in sorted(files.items()):
        with open(path, encoding="utf-8", errors="replace") as f:
            code, includes, defines = strip(f.read())
        uses = set(TOKEN.findall(code + "\n" + "\n".join(defines)))
        info[rel] = {
            "includes": includes,
            "defs": definitions(code) if rel.endswith(".c") else set(),
            "uses": {u for u in uses if IDENT.match(u)},
        }
    return info


def graph(root, info):
    definer = {}
    for rel, fi in info.items():
        for name in fi["defs"]:
            definer.setdefault(name, []).append(rel)
    edges = {rel: {} for rel in info}
    # the build's include path: every folder under src/, include/, cli/
    inc_dirs = tuple(sorted({os.path.dirname(r) for r in info
                             if r.startswith("src" + os.sep)})) \
        + BASE_INCLUDE_DIRS
    for rel, fi in info.items():
        here = os.path.dirname(rel)
        for inc in fi["includes"]:
            for base in (here,) + inc_dirs:
                cand = os.path.normpath(os.path.join(base, inc))
                if cand in info:
                    if cand != rel:
                        edges[rel].setdefault(cand, set()).add("#include")
                    break
        if not rel.endswith(".c"):
            continue  # a header's names are declarations
        for name in fi["uses"] - fi["defs"]:
            owners = definer.get(name, [])
            if len(owners) == 1 and owners[0] != rel:
                edges[rel].setdefault(owners[0], set()).add(name)
    return edges


def circles(edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        work = [(v, iter(sorted(edges[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.add(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(comp)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def describe(comp, edges):
    lines = []
    for a in sorted(comp):
        for b in sorted(edges[a]):
            if b in comp:
                lines.append("    %s -> %s: %s" %
                             (a, b, ", ".join(sorted(edges[a][b]))))
    return "\n".join(lines)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), "..")
    edges = graph(root, scan(root))
    found = circles(edges)
    known = [k["files"] for k in KNOWN]
    bad = 0
    for comp in found:
        if comp not in known:
            bad += 1
            print("deps_check: a circle not on the known list (%d files):"
                  % len(comp))
            print(describe(comp, edges))
    for k in KNOWN:
        if k["files"] not in found:
            bad += 1
            print("deps_check: known circle gone or changed, take it off "
                  "(or correct) the list in tests/deps_check.py: %s"
                  % ", ".join(sorted(k["files"])))
    if "--print" in argv:
        for comp in found:
            print("circle of %d files:" % len(comp))
            print(describe(comp, edges))
    nedges = sum(len(e) for e in edges.values())
    print("deps_check: %d files, %d edges, %d circles (%d known)%s"
          % (len(edges), nedges, len(found), len(KNOWN),
             "" if not bad else ", %d problem(s)" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
